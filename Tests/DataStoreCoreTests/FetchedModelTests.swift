import Foundation
import Testing

@testable import DataStoreCore

/// How a fetch fills in the models it creates (`init(snapshot:)`): `@Attribute` storage written in place at
/// its offset in the instance, names matched without hashing where they can be, and every attribute set, the
/// ones the snapshot lacks to `null`.
@Suite struct FetchedModelTests {
    final class Voyage: PersistentModel {
        static let schemaAttributes: [ModelAttribute<Voyage>] = [
            .attribute("name", \.name), .attribute("captain", \.captain), .attribute("legs", \.legs),
            .attribute("distance", \.distance), .attribute("isCharter", \.isCharter),
            .attribute("departure", \.departure), .attribute("ports", \.ports),
            // Longer than the 15 bytes a `String` holds inline: matched by hash, not by its bytes.
            .attribute("portOfRegistryAndFlagState", \.portOfRegistryAndFlagState),
            .attribute("notes", \.notes), .attribute("crew", \.crew), .attribute("motto", \.motto),
        ]
        var persistentModelID = PersistentIdentifier()
        @Attribute var name = "unnamed"
        @Attribute var captain: String? = "nobody"
        @Attribute var legs: Int64 = -1
        @Attribute var distance: Double? = -1
        @Attribute var isCharter = true
        @Attribute var departure: Date? = Date(timeIntervalSince1970: 1)
        @Attribute var ports: [String] = ["nowhere"]
        @Attribute var portOfRegistryAndFlagState = "none"
        /// A plain stored property: written in place too.
        var notes: String? = "none"
        /// A stored property with an observer: written through its key path, so that the observer runs.
        var crew: Int64 = 0 {
            didSet { crewChanges += 1 }
        }
        var crewChanges = 0
        /// A computed property: written through its key path, which calls the setter.
        var motto: String {
            get { mottoStorage }
            set { mottoStorage = newValue.uppercased() }
        }
        var mottoStorage = ""
        init() {}
    }

    struct Postcard: PersistentModel {
        static let schemaAttributes: [ModelAttribute<Postcard>] = [.attribute("text", \.text)]
        var persistentModelID = PersistentIdentifier()
        var text = ""
        init() {}
    }

    static let id = PersistentIdentifier(storeIdentifier: "s", entityName: "Voyage", primaryKey: "v1")

    static let values: [String: SnapshotValue] = [
        "name": .string("Transat"), "captain": .string("Ellen MacArthur"), "legs": .integer(3),
        "distance": .double(5_800.5), "isCharter": .bool(false),
        "departure": .date(Date(timeIntervalSince1970: 1_700_000_000)), "ports": .array([.string("Brest")]),
        "portOfRegistryAndFlagState": .string("Saint-Malo, France"), "notes": .string("windy"),
        "crew": .integer(12), "motto": .string("FAIR WINDS"),
    ]

    @Test func everyAttributeComesFromItsSnapshot() throws {
        // Names built at run time, so that no key shares storage with the declarations' names.
        var values: [String: SnapshotValue] = [:]
        for (name, value) in Self.values { values[String(name.reversed().reversed())] = value }
        let voyage = try Voyage(snapshot: DataStoreSnapshot(persistentIdentifier: Self.id, values: values))
        #expect(voyage.persistentModelID == Self.id)
        #expect(voyage.name == "Transat")
        #expect(voyage.captain == "Ellen MacArthur")
        #expect(voyage.legs == 3)
        #expect(voyage.distance == 5_800.5)
        #expect(voyage.isCharter == false)
        #expect(voyage.departure == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(voyage.ports == ["Brest"])
        #expect(voyage.portOfRegistryAndFlagState == "Saint-Malo, France")
        #expect(voyage.notes == "windy")
        #expect(voyage.crew == 12 && voyage.crewChanges == 1)
        #expect(voyage.motto == "FAIR WINDS")
        #expect(voyage.snapshotValues == Self.values)
    }

    @Test func theAttributeStorageIsWrittenInPlace() throws {
        let writers = ModelWriters.of(Voyage.self)
        #expect(writers.writesInPlace)
        let inPlace = writers.entries.map { entry in
            if case .inPlace = entry.write { true } else { false }
        }
        // Every stored property; not the observed one, nor the computed one.
        #expect(inPlace == [true, true, true, true, true, true, true, true, true, false, false])
        // A struct has no instance address to write at.
        #expect(ModelWriters.of(Postcard.self).writesInPlace == false)
    }

    final class Harbour: PersistentModel {
        static let schemaAttributes: [ModelAttribute<Harbour>] = [
            .attribute("name", \.name), .relationship("flagship", \.flagship),
            .relationship("fleet", \.fleet, deleteRule: .cascade),
        ]
        var persistentModelID = PersistentIdentifier()
        var name = ""
        @Relationship var flagship: Harbour?
        @Relationship var fleet: [Harbour] = []
        init() {}

        /// The storage of `flagship`, which is private to the class.
        static var flagshipStorage: ReferenceWritableKeyPath<Harbour, Relationship<Harbour?>> { \._flagship }
    }

    /// A model whose `init()` sets its relationship: measuring the storage's offset makes instances, whose
    /// `init()` reads the relationship while it is being measured.
    final class Dock: PersistentModel {
        static let schemaAttributes: [ModelAttribute<Dock>] = [.relationship("berths", \.berths)]
        var persistentModelID = PersistentIdentifier()
        @Relationship var berths: [Dock] = []
        init() { berths = [] }

        static var berthsStorage: ReferenceWritableKeyPath<Dock, Relationship<[Dock]>> { \._berths }
    }

    @Test func aModelWhoseInitSetsItsRelationshipIsMeasured() {
        let dock = Dock()
        dock.berths = [Dock()]
        #expect(dock.berths.count == 1)
        #expect(StorageOffsets.offset(of: Dock.berthsStorage) != nil)
    }

    /// Resolves every identifier to one harbour, counting the calls.
    final class CountingResolver: RelatedModelResolving {
        let harbour: Harbour
        var calls = 0
        init(_ harbour: Harbour) { self.harbour = harbour }

        func resolve<Model: PersistentModel & AnyObject>(
            _ identifiers: [PersistentIdentifier], as type: Model.Type
        )
            -> [Model]?
        {
            calls += 1
            return identifiers.compactMap { _ in harbour as? Model }
        }

        var changeLogNumber: Int { 0 }
    }

    /// A fetched harbour named Brest whose relationships are faults naming `flagship` and `fleet`.
    static func brest(
        flagship: PersistentIdentifier, fleet: [PersistentIdentifier],
        resolver: (any RelatedModelResolving)? = nil
    ) throws -> Harbour {
        try Harbour(
            snapshot: DataStoreSnapshot(
                persistentIdentifier: id,
                values: [
                    "name": .string("Brest"), "flagship": .identifier(flagship),
                    "fleet": .array(fleet.map { .identifier($0) }),
                ]),
            resolver: resolver)
    }

    @Test func relationshipsOfAFetchedModelAreWrittenInPlace() throws {
        // Both shapes of `@Relationship` storage; the state enum's copies differ from it in unused bytes, so
        // the offset is trusted on the two instances' addresses alone.
        for attribute in Harbour.schemaAttributes.dropFirst() {
            #expect(attribute.relationship?.writesFreshFaultsInPlace() == true, "\(attribute.name)")
        }
        let flagship = PersistentIdentifier(storeIdentifier: "s", entityName: "Harbour", primaryKey: "h2")
        let harbour = try Self.brest(flagship: flagship, fleet: [flagship, Self.id])
        // Faults hold what the snapshot said (no resolver: they read as empty, but keep their identifiers).
        #expect(harbour.snapshotValues["flagship"] == .identifier(flagship))
        #expect(harbour.snapshotValues["fleet"] == .array([.identifier(flagship), .identifier(Self.id)]))
        #expect(harbour.name == "Brest")
    }

    @Test func aRelationshipIsReadAndLoadedAtItsStorageOffset() throws {
        // The read goes to the storage's address rather than through its key path (`StorageOffsets`).
        #expect(StorageOffsets.offset(of: Harbour.flagshipStorage) != nil)
        let target = Harbour()
        target.name = "Lorient"
        let resolver = CountingResolver(target)
        let other = PersistentIdentifier(storeIdentifier: "s", entityName: "Harbour", primaryKey: "h2")
        let harbour = try Self.brest(flagship: other, fleet: [other], resolver: resolver)
        #expect(harbour[keyPath: Harbour.flagshipStorage].isLoaded == false)
        // The first read loads the fault and writes the loaded value back where the storage lies: the second read
        // asks the resolver nothing, and the key path sees what the read wrote.
        #expect(harbour.flagship === target)
        #expect(resolver.calls == 1)
        #expect(harbour[keyPath: Harbour.flagshipStorage].isLoaded)
        #expect(harbour.flagship === target)
        #expect(resolver.calls == 1)
        #expect(harbour.fleet.map(\.name) == ["Lorient"])
        #expect(harbour.fleet.count == 1)
        #expect(resolver.calls == 2)
        #expect(harbour.snapshotValues["flagship"] == .identifier(target.persistentModelID))
    }

    @Test func anAttributeTheSnapshotLacksIsSetToNull() throws {
        var values = Self.values
        values["captain"] = nil
        values["distance"] = nil
        values["departure"] = nil
        values["notes"] = nil
        let voyage = try Voyage(snapshot: DataStoreSnapshot(persistentIdentifier: Self.id, values: values))
        // Not the defaults `init()` gave them.
        #expect(voyage.captain == nil)
        #expect(voyage.distance == nil)
        #expect(voyage.departure == nil)
        #expect(voyage.notes == nil)
        #expect(voyage.name == "Transat")
    }

    @Test func aValueOfTheWrongKindThrowsTheTypedError() {
        let cases: [(String, SnapshotValue)] = [
            ("legs", .string("three")), ("portOfRegistryAndFlagState", .integer(1)),
        ]
        for (name, wrong) in cases {
            var values = Self.values
            values[name] = wrong
            #expect {
                try Voyage(snapshot: DataStoreSnapshot(persistentIdentifier: Self.id, values: values))
            } throws: { error in
                guard let error = error as? DataStoreError else { return false }
                return error.code == .attributeTypeMismatch && error.entity == "Voyage"
                    && error.attribute == name
                    && error.foundType == wrong.kindName
            }
        }
        // A required attribute the snapshot lacks is a `null` of the wrong kind.
        var values = Self.values
        values["legs"] = nil
        #expect(throws: DataStoreError.self) {
            try Voyage(snapshot: DataStoreSnapshot(persistentIdentifier: Self.id, values: values))
        }
    }

    @Test func aNameThatIsNoAttributeIsIgnored() throws {
        var values = Self.values
        values["cook"] = .integer(1)
        values["aNameMuchLongerThanFifteenBytes"] = .string("ignored")
        let voyage = try Voyage(snapshot: DataStoreSnapshot(persistentIdentifier: Self.id, values: values))
        #expect(voyage.snapshotValues == Self.values)
    }

    @Test func positionsAreFoundForShortAndLongNames() {
        let names = ["a", "fifteen-bytes!!", "sixteen-bytes!!!", "name", "a much longer attribute name"]
        let positions = AttributePositions(names)
        for (position, name) in names.enumerated() {
            #expect(positions[name] == position)
            // The same text in storage of its own.
            #expect(positions[String(decoding: Array(name.utf8), as: UTF8.self)] == position)
        }
        #expect(positions["b"] == nil)
        #expect(positions["sixteen-bytes!!?"] == nil)
        #expect(positions[""] == nil)
    }

    @Test func positionsAreFoundAmongManyNamesAndARepeatedNameGivesItsFirst() {
        // More names than the table of small names holds (254), names that differ in one byte, a repeat.
        var names = (0..<300).map { "attribute\($0)" }
        names.append("attribute7")
        let positions = AttributePositions(names)
        for (position, name) in names.enumerated().dropLast() {
            #expect(positions[name] == position)
            #expect(positions[String(decoding: Array(name.utf8), as: UTF8.self)] == position)
        }
        #expect(positions["attribute7"] == 7)
        #expect(positions["attribute300"] == nil)
        #expect(positions["attribute"] == nil)
    }
}
