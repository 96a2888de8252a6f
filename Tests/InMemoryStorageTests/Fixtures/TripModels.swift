import DataStoreCore
import Foundation

/// The seeds' `Trip`, ported: `@Attribute(.preserveValueOnDeletion)` becomes an option on the attribute
/// declaration, and the relationship is a stored identifier.
final class Trip: PersistentModel, Hashable {
    static let schemaAttributes: [ModelAttribute<Trip>] = [
        .attribute("name", \.name, options: [.unique, .preserveValueOnDeletion]),
        .attribute("destination", \.destination),
        .attribute("startDate", \.startDate, options: .preserveValueOnDeletion),
        .attribute("endDate", \.endDate, options: .preserveValueOnDeletion),
        .attribute("livingAccommodation", \.livingAccommodation),
    ]
    var persistentModelID = PersistentIdentifier()
    var name = ""
    var destination = ""
    var startDate = Date(timeIntervalSinceReferenceDate: 0)
    var endDate = Date(timeIntervalSinceReferenceDate: 0)
    var livingAccommodation: PersistentIdentifier?

    init() {}

    init(name: String, destination: String, startDay: Int, days: Int) {
        self.name = name
        self.destination = destination
        self.startDate = Date(timeIntervalSinceReferenceDate: Double(startDay) * 86_400)
        self.endDate = startDate.addingTimeInterval(Double(days) * 86_400)
    }
}

/// The seeds' `LivingAccommodation`: only `placeName` survives deletion.
final class LivingAccommodation: PersistentModel {
    static let schemaAttributes: [ModelAttribute<LivingAccommodation>] = [
        .attribute("address", \.address),
        .attribute("placeName", \.placeName, options: .preserveValueOnDeletion),
        .attribute("isConfirmed", \.isConfirmed),
    ]
    var persistentModelID = PersistentIdentifier()
    var address = ""
    var placeName = ""
    var isConfirmed = false

    init() {}

    init(address: String, placeName: String) {
        self.address = address
        self.placeName = placeName
    }
}

enum TransactionAuthor {
    static let app = "app"
    static let widget = "widget"
}
