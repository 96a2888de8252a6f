public import DataStoreCore
public import Foundation

/// A trip model with a to-many list of items and, on each item, the to-one side pointing back: what
/// ``TripEditor`` edits and ``StoredTrips`` reads. Each edit is written as a user of that model would write
/// it, so that the seeds' spellings (a plain list or an optional one, `@Attribute` or plain stored
/// properties) each get the same interleavings.
public protocol EditableTrip: PersistentModel, AnyObject {
    /// The model in the trip's list.
    associatedtype Item: PersistentModel, AnyObject

    /// The stored name of the trip's list, as `snapshotValues` spells it.
    static var listName: String { get }
    /// The stored name of the item's to-one side.
    static var ownerName: String { get }

    /// The trip's unique name.
    var name: String { get }
    /// A new trip named `name`, starting `day` days after 2001-01-01.
    static func make(name: String, day: Int) -> Self
    /// A new item titled `title`.
    static func makeItem(title: String) -> Item
    /// The item's title, unique among items.
    static func title(of item: Item) -> String

    /// The items the trip's list holds (none when the list is `nil`).
    var listedItems: [Item] { get }
    /// Appends `item` to the trip's list.
    func append(_ item: Item)
    /// Reverses the trip's list.
    func reverseList()
    /// Empties the trip's list as a user of the model would: `nil` for an optional list.
    func clearList()
    /// Sets the item's to-one side to `trip`.
    static func setTrip(_ trip: Self?, of item: Item)
    /// Sets the trip's destination.
    func setDestination(_ destination: String)
    /// Sets the trip's last day.
    func setEndDate(_ date: Date)
    /// The items whose trip is named `name`, for a batch delete.
    static func items(ofTripNamed name: String) -> Predicate<Item>
}
