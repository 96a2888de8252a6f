/// The sync tests' trips: a plain list, plain stored properties, no previous values on the list.
extension SyncTrip: ListOwningModel {
    /// `items`.
    public static var listName: String { "items" }
    /// `trip`.
    public static var ownerName: String { "trip" }

    /// A trip of `day` nights.
    public static func make(name: String, day: Int) -> SyncTrip { SyncTrip(name: name, nights: day) }
    /// An item titled `title`.
    public static func makeItem(title: String) -> SyncItem { SyncItem(title: title) }
    /// The item's title.
    public static func title(of item: SyncItem) -> String { item.title }

    /// The items.
    public var listedItems: [SyncItem] { items }
    /// `items.append(item)`.
    public func append(_ item: SyncItem) { items.append(item) }
    /// `items.insert(item, at: 0)`.
    public func insertFirst(_ item: SyncItem) { items.insert(item, at: 0) }
    /// `items.reverse()`.
    public func reverseList() { items.reverse() }
    /// `items = []`.
    public func clearList() { items = [] }
    /// `item.trip = trip`.
    public static func setTrip(_ trip: SyncTrip?, of item: SyncItem) { item.trip = trip }
    /// `item.trip`.
    public static func trip(of item: SyncItem) -> SyncTrip? { item.trip }
}
