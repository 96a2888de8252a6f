import Foundation
import Testing

@testable import DataStoreCore

/// How a save reads a model's values (`snapshotValues`): stored properties at their offset in the instance or
/// the struct value, every other attribute through its declaration, each under its own name.
@Suite struct SavedModelValuesTests {
    typealias Voyage = FetchedModelTests.Voyage

    /// A struct model: stored properties, a computed one and an opaque `Codable` one.
    struct Logbook: PersistentModel {
        struct Weather: Codable, Equatable {
            var wind: Int
        }
        static let schemaAttributes: [ModelAttribute<Logbook>] = [
            .attribute("title", \.title), .attribute("pages", \.pages), .attribute("shout", \.shout),
            .attribute("weather", \.weather, options: .codable), .attribute("closedAt", \.closedAt),
        ]
        var persistentModelID = PersistentIdentifier()
        var title = ""
        var pages: Int64 = 0
        var shout: String {
            get { title.uppercased() }
            set { title = newValue.lowercased() }
        }
        var weather = Weather(wind: 0)
        var closedAt: Date?
        init() {}
    }

    @Test func aClassModelsValuesAreItsProperties() {
        let voyage = Voyage()
        voyage.name = "Vendée Globe"
        voyage.captain = nil
        voyage.legs = 1
        voyage.distance = 24_000.25
        voyage.isCharter = false
        voyage.departure = nil
        voyage.ports = ["Les Sables-d'Olonne", "Cape Horn"]
        voyage.portOfRegistryAndFlagState = "La Rochelle"
        voyage.notes = nil
        voyage.crew = 1
        voyage.motto = "alone"
        let expected: [String: SnapshotValue] = [
            "name": .string("Vendée Globe"), "captain": .null, "legs": .integer(1),
            "distance": .double(24_000.25),
            "isCharter": .bool(false), "departure": .null,
            "ports": .array([.string("Les Sables-d'Olonne"), .string("Cape Horn")]),
            "portOfRegistryAndFlagState": .string("La Rochelle"), "notes": .null, "crew": .integer(1),
            "motto": .string("ALONE"),
        ]
        #expect(voyage.snapshotValues == expected)
        // Read again after a change: each read is of the instance as it is now.
        voyage.legs = 2
        voyage.notes = "rounding the Horn"
        #expect(voyage.snapshotValues["legs"] == .integer(2))
        #expect(voyage.snapshotValues["notes"] == .string("rounding the Horn"))
        // And what each attribute's own reader says.
        for attribute in Voyage.schemaAttributes {
            #expect(voyage.snapshotValues[attribute.name] == attribute.value(of: voyage), "\(attribute.name)")
        }
    }

    @Test func aClassModelsStoredPropertiesAreReadInPlace() {
        // Every stored property, the `@Attribute`s and the plain ones; not the observed one (its key path does
        // not reach the storage), nor the computed one.
        #expect(
            ModelReaders.of(Voyage.self).readsInPlace
                == [true, true, true, true, true, true, true, true, true, false, false])
    }

    @Test func aStructModelsValuesAreItsProperties() throws {
        var logbook = Logbook()
        logbook.title = "North Atlantic"
        logbook.pages = 212
        logbook.weather = .init(wind: 7)
        logbook.closedAt = Date(timeIntervalSince1970: 1_700_000_000)
        let values = logbook.snapshotValues
        #expect(values["title"] == .string("North Atlantic"))
        #expect(values["pages"] == .integer(212))
        #expect(values["shout"] == .string("NORTH ATLANTIC"))
        #expect(values["closedAt"] == .date(Date(timeIntervalSince1970: 1_700_000_000)))
        #expect(values.count == 5)
        for attribute in Logbook.schemaAttributes {
            #expect(values[attribute.name] == attribute.value(of: logbook), "\(attribute.name)")
        }
        // The opaque value reads back as what was stored. (Not the title: the computed `shout` sets it too.)
        let copy = try Logbook(
            snapshot: DataStoreSnapshot(persistentIdentifier: logbook.persistentModelID, values: values))
        #expect(copy.weather == .init(wind: 7) && copy.pages == 212)
        // Stored properties at their offset; the computed and the opaque one through their declarations.
        #expect(ModelReaders.of(Logbook.self).readsInPlace == [true, true, false, false, true])
    }

    @Test func aStructCopyIsReadAsItIsNow() {
        var first = Logbook()
        first.title = "one"
        var second = first
        second.title = "two"
        second.closedAt = nil
        #expect(first.snapshotValues["title"] == .string("one"))
        #expect(second.snapshotValues["title"] == .string("two"))
        #expect(second.snapshotValues["closedAt"] == .null)
    }
}
