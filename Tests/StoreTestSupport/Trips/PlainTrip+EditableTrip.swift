import DataStoreCore
public import Foundation

/// The seeds' spelling: an optional list, edited through optional chaining as their snippets would.
extension PlainTrip: EditableTrip {
    /// `bucketList`.
    public static var listName: String { "bucketList" }
    /// `trip`.
    public static var ownerName: String { "trip" }

    /// A trip named `name`.
    public static func make(name: String, day: Int) -> PlainTrip { PlainTrip(name: name) }
    /// An item titled `title`.
    public static func makeItem(title: String) -> PlainBucketListItem { PlainBucketListItem(title: title) }
    /// The item's title.
    public static func title(of item: PlainBucketListItem) -> String { item.title }

    /// The bucket list, or none when it is `nil`.
    public var listedItems: [PlainBucketListItem] { bucketList ?? [] }
    /// `bucketList?.append(item)`, or a list of the item when it is `nil`.
    public func append(_ item: PlainBucketListItem) {
        if bucketList == nil { bucketList = [item] } else { bucketList?.append(item) }
    }
    /// `bucketList?.insert(item, at: 0)`, or a list of the item when it is `nil`.
    public func insertFirst(_ item: PlainBucketListItem) {
        if bucketList == nil { bucketList = [item] } else { bucketList?.insert(item, at: 0) }
    }
    /// `bucketList?.reverse()`.
    public func reverseList() { bucketList?.reverse() }
    /// `bucketList = nil`.
    public func clearList() { bucketList = nil }
    /// `item.trip = trip`.
    public static func setTrip(_ trip: PlainTrip?, of item: PlainBucketListItem) { item.trip = trip }
    /// `item.trip`.
    public static func trip(of item: PlainBucketListItem) -> PlainTrip? { item.trip }
    /// Sets `destination`.
    public func setDestination(_ destination: String) { self.destination = destination }
    /// Sets `endDate`.
    public func setEndDate(_ date: Date) { endDate = date }
    /// `$0.trip?.name == name`.
    public static func items(ofTripNamed name: String) -> Predicate<PlainBucketListItem> {
        #Predicate { $0.trip?.name == name }
    }
}
