import DataStoreHistory
import Foundation
import StoreTestSupport
import Testing

/// A value of any `Codable` type, stored opaquely (`.codable`).
struct Itinerary: Codable, Hashable, Sendable {
    var stops: [String]
    var kilometres: Double
    var notes: [String: String] = [:]
}

final class Excursion: PersistentModel {
    static let schemaAttributes: [ModelAttribute<Excursion>] = [
        .attribute("name", \.name), .attribute("route", \.route, options: .codable),
        .attribute("alternative", \.alternative),
    ]
    var persistentModelID = PersistentIdentifier()
    var name = ""
    var route = Itinerary(stops: [], kilometres: 0)
    var alternative: Itinerary?
    init() {}
    init(name: String, route: Itinerary) {
        self.name = name
        self.route = route
    }
}

/// The same entity with `route` as a plain string: a change of value kind.
final class ExcursionWithPlainRoute: PersistentModel {
    static let entityName = "Excursion"
    static let schemaAttributes: [ModelAttribute<ExcursionWithPlainRoute>] = [
        .attribute("name", \.name), .attribute("route", \.route), .attribute("alternative", \.alternative),
    ]
    var persistentModelID = PersistentIdentifier()
    var name = ""
    var route = ""
    var alternative: String?
    init() {}
}

/// `Itinerary` after its shape changed in an app update: `stops` became `legs`.
struct RenamedItinerary: Codable, Hashable, Sendable {
    var legs: [String]
}

/// The same entity, reading `route` as the new shape.
final class ExcursionWithNewRouteShape: PersistentModel {
    static let entityName = "Excursion"
    static let schemaAttributes: [ModelAttribute<ExcursionWithNewRouteShape>] = [
        .attribute("name", \.name), .attribute("route", \.route, options: .codable),
        .attribute("alternative", \.alternative),
    ]
    var persistentModelID = PersistentIdentifier()
    var name = ""
    var route = RenamedItinerary(legs: [])
    var alternative: Itinerary?
    init() {}
}

/// `.codable` attributes: the value round-trips through every store (and a reopened file), the schema records
/// the option, and a predicate or sort that reads the value is refused with a typed error.
@Suite struct CodableAttributeTests {
    static let lisbon = Itinerary(
        stops: ["Lisbon", "Sintra"], kilometres: 28.5, notes: ["train": "blue line"])

    @Test func aCodableValueRoundTripsThroughTheInMemoryAndJSONFileStores() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "codable-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configurations: [ModelConfiguration] = [
            ModelConfiguration(InMemoryStoreConfiguration(name: "journeys")),
            ModelConfiguration(JSONFileStoreConfiguration(name: "journeys", directory: directory)),
        ]
        for configuration in configurations {
            do {
                let container = try ModelContainer(for: [Excursion.self], configurations: [configuration])
                let context = ModelContext(container)
                let journey = Excursion(name: "day trip", route: Self.lisbon)
                context.insert(journey)
                try context.save()
                journey.route.stops.append("Cascais")
                journey.alternative = Itinerary(stops: ["Porto"], kilometres: 313)
                try context.save()
                let fetched = try ModelContext(container).fetch(FetchDescriptor<Excursion>())
                #expect(fetched.map(\.route.stops) == [["Lisbon", "Sintra", "Cascais"]])
                #expect(fetched.first?.route.notes == ["train": "blue line"])
                #expect(fetched.first?.alternative?.stops == ["Porto"])
                // History records the change of the opaque value as one update.
                let last = try context.fetchHistory(HistoryDescriptor()).last
                #expect(last?.changes.map(\.kind) == [.update])
            }
        }
        // The JSON file store reopened: the value decodes, and the schema records the option.
        let reopened = try ModelContainer(
            for: [Excursion.self],
            configurations: [
                ModelConfiguration(JSONFileStoreConfiguration(name: "journeys", directory: directory))
            ])
        #expect(
            try ModelContext(reopened).fetch(FetchDescriptor<Excursion>()).first?.route.kilometres == 28.5)
        let store = try JSONFileDataStore(JSONFileStoreConfiguration(name: "journeys", directory: directory))
        let attribute = try store.recordedSchema()?.entity(named: "Excursion")?.attributes.first {
            $0.name == "route"
        }
        #expect(attribute?.options.contains(.codable) == true)
    }

    /// JSON has no NaN or infinity: they are stored as strings inside the opaque value, never as a null that
    /// would lose the whole value.
    @Test func nonFiniteNumbersInsideACodableValueRoundTrip() throws {
        let container = try ModelContainer(
            for: [Excursion.self],
            configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "journeys"))])
        let context = ModelContext(container)
        context.insert(Excursion(name: "unknown", route: Itinerary(stops: ["?"], kilometres: .nan)))
        context.insert(Excursion(name: "endless", route: Itinerary(stops: ["?"], kilometres: -.infinity)))
        try context.save()
        let fetched = try ModelContext(container).fetch(
            FetchDescriptor<Excursion>(sortBy: [SortDescriptor(\.name)]))
        #expect(fetched.map(\.route.stops) == [["?"], ["?"]])
        #expect(fetched.first?.route.kilometres == -.infinity)
        #expect(fetched.last?.route.kilometres.isNaN == true)
    }

    /// A stored value that no longer decodes as the attribute's type (the type's shape changed) is a typed
    /// error naming the entity and attribute; the stored value is untouched, and the old shape still reads it.
    @Test func aCodableValueThatNoLongerDecodesIsATypedErrorAndStaysStored() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "codable-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = ModelConfiguration(
            JSONFileStoreConfiguration(name: "journeys", directory: directory))
        do {
            let container = try ModelContainer(for: [Excursion.self], configurations: [configuration])
            let context = ModelContext(container)
            context.insert(Excursion(name: "day trip", route: Self.lisbon))
            try context.save()
        }
        do {
            let container = try ModelContainer(
                for: [ExcursionWithNewRouteShape.self], configurations: [configuration])
            #expect {
                try ModelContext(container).fetch(FetchDescriptor<ExcursionWithNewRouteShape>())
            } throws: {
                guard let error = $0 as? DataStoreError else { return false }
                return error.code == .attributeTypeMismatch && error.entity == "Excursion"
                    && error.attribute == "route"
            }
        }
        let container = try ModelContainer(for: [Excursion.self], configurations: [configuration])
        #expect(try ModelContext(container).fetch(FetchDescriptor<Excursion>()).first?.route == Self.lisbon)
    }

    @Test func aPredicateOrSortThatReadsACodableValueIsRefused() throws {
        let container = try ModelContainer(
            for: [Excursion.self],
            configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "journeys"))])
        let context = ModelContext(container)
        context.insert(Excursion(name: "day trip", route: Self.lisbon))
        try context.save()
        let route = Self.lisbon
        #expect {
            try context.fetch(FetchDescriptor<Excursion>(predicate: #Predicate { $0.route == route }))
        } throws: { error in
            guard let error = error as? DataStoreError, error.code == .invalidPredicate else { return false }
            return error.reason?.contains("'route'") == true
        }
        #expect {
            try context.fetch(FetchDescriptor<Excursion>(predicate: #Predicate { $0.route.kilometres > 10 }))
        } throws: { ($0 as? DataStoreError)?.code == .invalidPredicate }
        #expect {
            try context.fetch(FetchDescriptor<Excursion>(sortBy: [SortDescriptor(\.route.kilometres)]))
        } throws: { ($0 as? DataStoreError)?.code == .unsupportedFeature }
        // The store refuses too, for callers without a context.
        let store = try #require(container.store("journeys", as: InMemoryDataStore.self))
        #expect {
            try store.fetch(
                DataStoreFetchRequest(
                    descriptor: FetchDescriptor<Excursion>(predicate: #Predicate { $0.route == route })))
        } throws: { ($0 as? DataStoreError)?.code == .invalidPredicate }
        // Predicates on the other attributes work.
        #expect(
            try context.fetchCount(
                FetchDescriptor<Excursion>(predicate: #Predicate { $0.name == "day trip" })) == 1)
    }

    @Test func turningACodableAttributeIntoAPlainOneIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "codable-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = ModelConfiguration(
            JSONFileStoreConfiguration(name: "journeys", directory: directory))
        do {
            let container = try ModelContainer(for: [Excursion.self], configurations: [configuration])
            let context = ModelContext(container)
            context.insert(Excursion(name: "day trip", route: Self.lisbon))
            try context.save()
        }
        #expect {
            try ModelContainer(for: [ExcursionWithPlainRoute.self], configurations: [configuration])
        } throws: { error in
            guard let error = error as? DataStoreError, error.code == .incompatibleSchema else {
                return false
            }
            return error.attribute == "route"
        }
    }
}
