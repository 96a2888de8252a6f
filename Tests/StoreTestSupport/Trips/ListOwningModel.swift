public import DataStoreCore

/// A model with a to-many list of items and, on each item, the to-one side pointing back (a trip and its
/// bucket list, a playlist and its songs): what ``StoredTrips`` reads and the random list tests edit. Each edit
/// is written as a user of that model would write it, so that each spelling (a plain list or an optional one,
/// `@Attribute` or plain stored properties, with previous values or without) gets the same edits.
public protocol ListOwningModel: PersistentModel, AnyObject {
    /// The model in the list.
    associatedtype Item: PersistentModel, AnyObject

    /// The stored name of the list, as `snapshotValues` spells it.
    static var listName: String { get }
    /// The stored name of the item's to-one side.
    static var ownerName: String { get }

    /// The owner's unique name.
    var name: String { get }
    /// A new owner named `name`; `day` is a number the model may use for its other attributes.
    static func make(name: String, day: Int) -> Self
    /// A new item titled `title`.
    static func makeItem(title: String) -> Item
    /// The item's title, unique among items.
    static func title(of item: Item) -> String

    /// The items the list holds (none when the list is `nil`).
    var listedItems: [Item] { get }
    /// Appends `item` to the list.
    func append(_ item: Item)
    /// Inserts `item` at the front of the list.
    func insertFirst(_ item: Item)
    /// Reverses the list.
    func reverseList()
    /// Empties the list as a user of the model would: `nil` for an optional list.
    func clearList()
    /// Sets the item's to-one side to `owner`.
    static func setTrip(_ owner: Self?, of item: Item)
    /// The item's to-one side.
    static func trip(of item: Item) -> Self?
}
