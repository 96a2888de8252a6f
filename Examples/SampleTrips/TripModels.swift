public import DataStoreCore
public import Foundation

/// The seeds' `Trip`, ported: `@Attribute(.preserveValueOnDeletion)` becomes an option on the attribute
/// declaration, and the relationship is a stored identifier.
public final class Trip: PersistentModel, Hashable {
    /// The persisted attributes.
    public static let schemaAttributes: [ModelAttribute<Trip>] = [
        .attribute("name", \.name, options: [.unique, .preserveValueOnDeletion]),
        .attribute("destination", \.destination),
        .attribute("startDate", \.startDate, options: .preserveValueOnDeletion),
        .attribute("endDate", \.endDate, options: .preserveValueOnDeletion),
        .attribute("livingAccommodation", \.livingAccommodation),
    ]
    /// The model's identifier.
    public var persistentModelID = PersistentIdentifier()
    /// The trip's name, unique and kept on deletion.
    public var name = ""
    /// Where the trip goes.
    public var destination = ""
    /// The first day.
    public var startDate = Date(timeIntervalSinceReferenceDate: 0)
    /// The last day.
    public var endDate = Date(timeIntervalSinceReferenceDate: 0)
    /// The trip's accommodation.
    public var livingAccommodation: PersistentIdentifier?

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
    ]
    /// The model's identifier.
    public var persistentModelID = PersistentIdentifier()
    /// The street address.
    public var address = ""
    /// The place's name, kept on deletion.
    public var placeName = ""
    /// Whether the stay is confirmed (the widget's button).
    public var isConfirmed = false

    /// An empty instance for decoding.
    public init() {}

    /// An unconfirmed accommodation.
    public init(address: String, placeName: String) {
        self.address = address
        self.placeName = placeName
    }
}

/// The authors the sample's contexts record in history.
public enum TransactionAuthor {
    /// The app's own saves.
    public static let app = "app"
    /// The widget's saves.
    public static let widget = "widget"
}
