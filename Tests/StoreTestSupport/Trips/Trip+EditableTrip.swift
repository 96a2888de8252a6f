import DataStoreCore
public import Foundation
public import SampleTrips

/// The sample's trips: a plain list, `@Attribute` properties.
extension Trip: EditableTrip {
    /// `bucketList`.
    public static var listName: String { "bucketList" }
    /// `trip`.
    public static var ownerName: String { "trip" }

    /// A one-day trip to "d".
    public static func make(name: String, day: Int) -> Trip {
        Trip(name: name, destination: "d", startDay: day, days: 1)
    }
    /// An item not yet booked.
    public static func makeItem(title: String) -> BucketListItem { BucketListItem(title: title) }
    /// The item's title.
    public static func title(of item: BucketListItem) -> String { item.title }

    /// The bucket list.
    public var listedItems: [BucketListItem] { bucketList }
    /// `bucketList.append(item)`.
    public func append(_ item: BucketListItem) { bucketList.append(item) }
    /// `bucketList.insert(item, at: 0)`.
    public func insertFirst(_ item: BucketListItem) { bucketList.insert(item, at: 0) }
    /// `bucketList.reverse()`.
    public func reverseList() { bucketList.reverse() }
    /// `bucketList = []`.
    public func clearList() { bucketList = [] }
    /// `item.trip = trip`.
    public static func setTrip(_ trip: Trip?, of item: BucketListItem) { item.trip = trip }
    /// `item.trip`.
    public static func trip(of item: BucketListItem) -> Trip? { item.trip }
    /// Sets `destination`.
    public func setDestination(_ destination: String) { self.destination = destination }
    /// Sets `endDate`.
    public func setEndDate(_ date: Date) { endDate = date }
    /// `$0.trip?.name == name`.
    public static func items(ofTripNamed name: String) -> Predicate<BucketListItem> {
        #Predicate { $0.trip?.name == name }
    }
}
