public import DataStoreCore
public import Foundation

/// The seeds' `Trip`, ported: `@Attribute(.preserveValueOnDeletion)` becomes an option on the attribute
/// declaration (the property keeps `@Attribute`, which reports its changes so saves look only at changed
/// models), and `@Relationship(deleteRule: .cascade, inverse: …)` a relationship declaration next to the
/// attributes plus `@Relationship` on the property.
public final class Trip: PersistentModel, Hashable {
    /// The persisted attributes and relationships.
    public static let schemaAttributes: [ModelAttribute<Trip>] = [
        .attribute("name", \.name, options: [.unique, .preserveValueOnDeletion]),
        .attribute("destination", \.destination),
        .attribute("startDate", \.startDate, options: .preserveValueOnDeletion),
        .attribute("endDate", \.endDate, options: .preserveValueOnDeletion),
        .relationship(
            "livingAccommodation", \.livingAccommodation, deleteRule: .cascade,
            inverse: \LivingAccommodation.trip),
        .relationship("bucketList", \.bucketList, deleteRule: .cascade, inverse: \BucketListItem.trip),
    ]
    /// The model's identifier.
    public var persistentModelID = PersistentIdentifier()
    /// The trip's name, unique and kept on deletion.
    @Attribute public var name = ""
    /// Where the trip goes.
    @Attribute public var destination = ""
    /// The first day.
    @Attribute public var startDate = Date(timeIntervalSinceReferenceDate: 0)
    /// The last day.
    @Attribute public var endDate = Date(timeIntervalSinceReferenceDate: 0)
    /// Where the trip stays; deleted with the trip.
    @Relationship public var livingAccommodation: LivingAccommodation?
    /// What to do there; deleted with the trip.
    @Relationship public var bucketList: [BucketListItem] = []

    /// An empty instance for decoding.
    public init() {}

    /// A trip of `days` days starting `startDay` days after 2001-01-01.
    public init(name: String, destination: String, startDay: Int, days: Int) {
        self.name = name
        self.destination = destination
        self.startDate = Date(timeIntervalSinceReferenceDate: Double(startDay) * 86_400)
        self.endDate = startDate.addingTimeInterval(Double(days) * 86_400)
    }
}

/// The seeds' `LivingAccommodation`: only `placeName` survives deletion.
public final class LivingAccommodation: PersistentModel {
    /// The persisted attributes.
    public static let schemaAttributes: [ModelAttribute<LivingAccommodation>] = [
        .attribute("address", \.address),
        .attribute("placeName", \.placeName, options: .preserveValueOnDeletion),
        .attribute("isConfirmed", \.isConfirmed),
        .relationship("trip", \.trip),
    ]
    /// The model's identifier.
    public var persistentModelID = PersistentIdentifier()
    /// The street address.
    @Attribute public var address = ""
    /// The place's name, kept on deletion.
    @Attribute public var placeName = ""
    /// Whether the stay is confirmed (the widget's button).
    @Attribute public var isConfirmed = false
    /// The trip staying here: the inverse of ``Trip/livingAccommodation``. Deleting the accommodation sets the
    /// trip's `livingAccommodation` to `nil` (the default `.nullify` rule).
    @Relationship public var trip: Trip?

    /// An empty instance for decoding.
    public init() {}

    /// An unconfirmed accommodation.
    public init(address: String, placeName: String) {
        self.address = address
        self.placeName = placeName
    }
}

/// The seeds' `BucketListItem`: something to do on a trip.
public final class BucketListItem: PersistentModel {
    /// The persisted attributes and relationships.
    public static let schemaAttributes: [ModelAttribute<BucketListItem>] = [
        .attribute("title", \.title),
        .attribute("details", \.details),
        .attribute("hasReservation", \.hasReservation),
        .attribute("isInPlan", \.isInPlan),
        .relationship("trip", \.trip),
    ]
    /// The model's identifier.
    public var persistentModelID = PersistentIdentifier()
    /// What it is.
    @Attribute public var title = ""
    /// More about it.
    @Attribute public var details = ""
    /// Whether it is booked.
    @Attribute public var hasReservation = false
    /// Whether it is in the plan.
    @Attribute public var isInPlan = false
    /// The trip it belongs to: the inverse of ``Trip/bucketList``.
    @Relationship public var trip: Trip?

    /// An empty instance for decoding.
    public init() {}

    /// An item not yet booked.
    public init(title: String, details: String = "", hasReservation: Bool = false) {
        self.title = title
        self.details = details
        self.hasReservation = hasReservation
    }
}

/// The authors the sample's contexts record in history.
public enum TransactionAuthor {
    /// The app's own saves.
    public static let app = "app"
    /// The widget's saves.
    public static let widget = "widget"
}
