import DataStoreCore
import DataStoreHistory
import Foundation
import InMemoryStorage
import JSONFileStorage
import Testing

/// A stay declared as the seeds declare it: no `Hashable`, no `Equatable`.
final class PlainStay: PersistentModel {
    static let schemaAttributes: [ModelAttribute<PlainStay>] = [
        .attribute("placeName", \.placeName), .relationship("visit", \.visit),
    ]
    var persistentModelID = PersistentIdentifier()
    @Attribute var placeName = ""
    @Relationship var visit: Visit?
    init() {}
}

/// A visit whose stay may be missing.
final class Visit: PersistentModel {
    static let schemaAttributes: [ModelAttribute<Visit>] = [
        .attribute("name", \.name),
        .relationship("stay", \.stay, deleteRule: .cascade, inverse: \PlainStay.visit),
    ]
    var persistentModelID = PersistentIdentifier()
    @Attribute var name = ""
    @Relationship var stay: PlainStay?
    init() {}
    init(name: String) { self.name = name }
}

/// A voyage with the seeds' optional to-many spelling: `var bucketList: [BucketListItem]? = []`.
final class Voyage: PersistentModel {
    static let schemaAttributes: [ModelAttribute<Voyage>] = [
        .attribute("name", \.name),
        .relationship("ports", \.ports, deleteRule: .cascade, inverse: \Port.voyage),
    ]
    var persistentModelID = PersistentIdentifier()
    @Attribute var name = ""
    @Relationship var ports: [Port]? = []
    init() {}
    init(name: String) { self.name = name }
}

/// A stop on a voyage.
final class Port: PersistentModel {
    static let schemaAttributes: [ModelAttribute<Port>] = [
        .attribute("place", \.place), .relationship("voyage", \.voyage),
    ]
    var persistentModelID = PersistentIdentifier()
    @Attribute var place = ""
    @Relationship var voyage: Voyage?
    init() {}
    init(place: String) { self.place = place }
}

/// A cruise with the seeds' optional list and no inverse declared on either side: SwiftData infers it.
final class Cruise: PersistentModel {
    static let schemaAttributes: [ModelAttribute<Cruise>] = [
        .attribute("name", \.name), .relationship("stops", \.stops, deleteRule: .cascade),
    ]
    var persistentModelID = PersistentIdentifier()
    @Attribute var name = ""
    @Relationship var stops: [CruiseStop]? = []
    init() {}
    init(name: String) { self.name = name }
}

/// A stop of a cruise, pointing back without declaring it.
final class CruiseStop: PersistentModel {
    static let schemaAttributes: [ModelAttribute<CruiseStop>] = [
        .attribute("place", \.place), .relationship("cruise", \.cruise),
    ]
    var persistentModelID = PersistentIdentifier()
    @Attribute var place = ""
    @Relationship var cruise: Cruise?
    init() {}
    init(place: String) { self.place = place }
}

/// Issue 37, item 16: the seeds' spellings compile and open as written.
@Suite struct SeedSpellingTests {
    /// Six seed snippets declare to-many relationships as optional arrays. They are to-many: stored as lists,
    /// kept in step with their inverse, cascaded, and read back as an array (empty, never `nil`, once fetched).
    @Test func anOptionalToManyRelationshipIsAToManyRelationship() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "optional-to-many-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = ModelConfiguration(
            JSONFileStoreConfiguration(name: "voyages", directory: directory))
        let container = try ModelContainer(for: [Voyage.self, Port.self], configurations: [configuration])
        let context = ModelContext(container)
        let voyage = Voyage(name: "coast")
        context.insert(voyage)
        let first = Port(place: "Nice")
        voyage.ports?.append(first)
        voyage.ports?.append(Port(place: "Genoa"))
        #expect(first.voyage === voyage)
        let empty = Voyage(name: "home")
        empty.ports = nil
        context.insert(empty)
        try context.save()
        #expect(
            Schema([Voyage.self, Port.self]).entity(named: "Voyage")?.relationships.first?.isToMany == true)

        let reader = ModelContext(
            try ModelContainer(for: [Voyage.self, Port.self], configurations: [configuration]))
        let voyages = try reader.fetch(FetchDescriptor<Voyage>(sortBy: [SortDescriptor(\.name)]))
        #expect(voyages.map(\.name) == ["coast", "home"])
        #expect(voyages[0].ports?.map(\.place) == ["Nice", "Genoa"])
        #expect(voyages[0].ports?.first?.voyage === voyages[0])
        #expect(voyages[1].ports?.isEmpty == true)
        reader.delete(voyages[0])
        try reader.save()
        #expect(try reader.fetchCount(FetchDescriptor<Port>()) == 0, "the cascade reached the ports")
    }

    /// Setting the to-one side keeps an optional list on the other side in step, as it keeps a plain list: the
    /// port joins the new voyage's ports and leaves the old one's, in memory, before any save.
    @Test func settingTheToOneSideUpdatesAnOptionalList() throws {
        let container = try ModelContainer(
            for: [Voyage.self, Port.self],
            configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "voyages"))])
        let context = ModelContext(container)
        let coast = Voyage(name: "coast")
        let islands = Voyage(name: "islands")
        context.insert(coast)
        context.insert(islands)
        let nice = Port(place: "Nice")
        nice.voyage = coast
        #expect(coast.ports?.map(\.place) == ["Nice"])
        let genoa = Port(place: "Genoa")
        genoa.voyage = coast
        #expect(coast.ports?.map(\.place) == ["Nice", "Genoa"])
        nice.voyage = islands
        #expect(coast.ports?.map(\.place) == ["Genoa"])
        #expect(islands.ports?.map(\.place) == ["Nice"])
        let empty = Voyage(name: "empty")
        empty.ports = nil
        context.insert(empty)
        genoa.voyage = empty
        #expect(empty.ports?.map(\.place) == ["Genoa"])
        #expect(coast.ports?.isEmpty == true)
        try context.save()

        let reader = ModelContext(container)
        let voyages = try reader.fetch(FetchDescriptor<Voyage>(sortBy: [SortDescriptor(\.name)]))
        #expect(voyages.map(\.name) == ["coast", "empty", "islands"])
        #expect(voyages.map { $0.ports?.map(\.place) ?? [] } == [[], ["Genoa"], ["Nice"]])
        // Saved at all: nothing inserted the ports when their voyage's list did not gain them.
        #expect(try reader.fetchCount(FetchDescriptor<Port>()) == 2)
    }

    /// Deleting a port takes it out of its voyage's optional list: in memory for a port never saved, and in
    /// the store (and the context's voyage) for a saved one.
    @Test func deletingAModelTakesItOutOfAnOptionalList() throws {
        let container = try ModelContainer(
            for: [Voyage.self, Port.self],
            configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "voyages"))])
        let context = ModelContext(container)
        let voyage = Voyage(name: "coast")
        context.insert(voyage)
        let nice = Port(place: "Nice")
        let genoa = Port(place: "Genoa")
        let pisa = Port(place: "Pisa")
        voyage.ports = [nice, genoa, pisa]
        try context.save()
        context.delete(genoa)
        try context.save()
        #expect(voyage.ports?.map(\.place) == ["Nice", "Pisa"])
        let marseille = Port(place: "Marseille")
        marseille.voyage = voyage
        context.delete(marseille)
        #expect(voyage.ports?.map(\.place) == ["Nice", "Pisa"])
        try context.save()

        let stored = try ModelContext(container).fetch(FetchDescriptor<Voyage>())
        #expect(stored.first?.ports?.map(\.place) == ["Nice", "Pisa"])
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Port>()) == 2)
    }

    /// The seeds' implicit inverse with an optional list (`var bucketList: [BucketListItem]? = []` and
    /// `var trip: Trip?`, neither naming the other): either side keeps the other in step, and the cascade follows.
    @Test func anInferredInverseKeepsAnOptionalListInStep() throws {
        let container = try ModelContainer(
            for: [Cruise.self, CruiseStop.self],
            configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "cruises"))])
        let context = ModelContext(container)
        let cruise = Cruise(name: "north")
        context.insert(cruise)
        let bergen = CruiseStop(place: "Bergen")
        cruise.stops?.append(bergen)
        #expect(bergen.cruise === cruise)
        let tromso = CruiseStop(place: "Tromsø")
        tromso.cruise = cruise
        #expect(cruise.stops?.map(\.place) == ["Bergen", "Tromsø"])
        try context.save()

        let reader = ModelContext(container)
        let stored = try #require(try reader.fetch(FetchDescriptor<Cruise>()).first)
        #expect(stored.stops?.map(\.place) == ["Bergen", "Tromsø"])
        #expect(stored.stops?.allSatisfy { $0.cruise === stored } == true)
        reader.delete(stored)
        try reader.save()
        #expect(try reader.fetchCount(FetchDescriptor<CruiseStop>()) == 0, "the cascade reached both stops")
    }

    /// `#Predicate { $0.livingAccommodation == nil }` with a model that declares nothing but `PersistentModel`:
    /// class models are equatable by identity, as `@Model` classes are.
    @Test func aPredicateComparingARelationshipWithNilNeedsNoDeclaredConformance() throws {
        let container = try ModelContainer(
            for: [Visit.self],
            configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "visits"))])
        let context = ModelContext(container)
        let staying = Visit(name: "staying")
        context.insert(staying)
        staying.stay = PlainStay()
        context.insert(Visit(name: "passing"))
        try context.save()
        let without = try context.fetch(FetchDescriptor<Visit>(predicate: #Predicate { $0.stay == nil }))
        #expect(without.map(\.name) == ["passing"])
        let stay = try #require(staying.stay)
        #expect(stay == stay)
        #expect(PlainStay() != stay)
    }

    /// Seed 002's `fullSchema` container: two unnamed `ModelConfiguration(schema:url:)`, each its own store,
    /// named after its URL; and seed 004's `ModelConfiguration(url:)` argument order with `allowsSave:`.
    @Test func twoUnnamedConfigurationsAtTwoURLsAreTwoStores() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "seed-urls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let trips = root.appendingPathComponent("trip.store")
        let people = root.appendingPathComponent("people.store")
        let fullSchema = Schema([Note.self, Person.self])
        do {
            let container = try ModelContainer(
                for: fullSchema,
                configurations: [
                    ModelConfiguration(schema: Schema([Note.self]), url: trips),
                    ModelConfiguration(schema: Schema([Person.self]), url: people),
                ])
            let context = ModelContext(container)
            context.insert(Note(title: "n"))
            context.insert(Person(name: "p"))
            try context.save()
            #expect(Set(try context.fetchHistory(.init()).map(\.storeIdentifier)) == ["trip", "people"])
        }
        #expect(try JSONFileDataStore.describe(directory: trips).name == "trip")
        #expect(try JSONFileDataStore.describe(directory: people).name == "people")

        let readOnly = try ModelContainer(
            for: [Note.self], configurations: [ModelConfiguration(url: trips, allowsSave: false)])
        let context = ModelContext(readOnly)
        #expect(try context.fetch(FetchDescriptor<Note>()).map(\.title) == ["n"])
        context.insert(Note(title: "refused"))
        #expect { try context.save() } throws: { ($0 as? DataStoreError)?.code == .readOnlyStore }
    }

    /// A store an earlier version made at a URL without a name is named `default`; an unnamed configuration
    /// at that URL still opens it.
    @Test func anUnnamedConfigurationOpensTheStoreAtItsURLWhateverItIsNamed() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "legacy-\(UUID().uuidString).store")
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            let container = try ModelContainer(
                for: [Note.self], configurations: [ModelConfiguration("default", url: url)])
            let context = ModelContext(container)
            context.insert(Note(title: "old"))
            try context.save()
        }
        let container = try ModelContainer(for: [Note.self], configurations: [ModelConfiguration(url: url)])
        #expect(try ModelContext(container).fetch(FetchDescriptor<Note>()).map(\.title) == ["old"])
    }
}
