public import DataStoreCore
public import Foundation

/// The seeds' `Trip` as their snippets spell it: plain stored properties (compared at each save, since they
/// cannot report their writes) and the optional list `var bucketList: [BucketListItem]? = []`.
public final class PlainTrip: PersistentModel {
    /// The attributes and the list.
    public static let schemaAttributes: [ModelAttribute<PlainTrip>] = [
        .attribute("name", \.name, options: .unique),
        .attribute("destination", \.destination),
        .attribute("endDate", \.endDate),
        .relationship("bucketList", \.bucketList, deleteRule: .cascade, inverse: \PlainBucketListItem.trip),
    ]
    /// The identifier.
    public var persistentModelID = PersistentIdentifier()
    /// The trip's unique name.
    public var name = ""
    /// Where the trip goes.
    public var destination = ""
    /// The last day.
    public var endDate = Date(timeIntervalSinceReferenceDate: 0)
    /// What to do there; deleted with the trip.
    @Relationship public var bucketList: [PlainBucketListItem]? = []

    /// An empty instance for decoding.
    public init() {}

    /// A trip named `name`.
    public init(name: String) { self.name = name }
}

/// Something to do on a ``PlainTrip``, with plain stored properties.
public final class PlainBucketListItem: PersistentModel {
    /// The title and the trip.
    public static let schemaAttributes: [ModelAttribute<PlainBucketListItem>] = [
        .attribute("title", \.title), .relationship("trip", \.trip),
    ]
    /// The identifier.
    public var persistentModelID = PersistentIdentifier()
    /// What it is.
    public var title = ""
    /// The trip it belongs to: the inverse of ``PlainTrip/bucketList``.
    @Relationship public var trip: PlainTrip?

    /// An empty instance for decoding.
    public init() {}

    /// An item titled `title`.
    public init(title: String) { self.title = title }
}
