import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import Synchronization
import Testing

/// A fetch moves each snapshot the store returned into the model it makes and into the context's record of what
/// is saved, and makes the models in the order their rows lie in memory, not the order it returns them in: the
/// models hold the stored values and come out in the store's order, the context's baseline is the stored row,
/// and a fetch that fails part-way gives back the typed error and leaves nothing half-made alive.
@Suite struct FetchMaterializationTests {
    /// A number that is stored as an integer and must be even: an odd stored integer does not convert, as a
    /// value of the wrong kind does not.
    struct Even: SnapshotValueConvertible, Equatable {
        var value: Int64
        var snapshotValue: SnapshotValue { .integer(value) }
        init(_ value: Int64) { self.value = value }
        init?(snapshotValue: SnapshotValue) {
            guard case .integer(let value) = snapshotValue, value.isMultiple(of: 2) else { return nil }
            self.value = value
        }
        static var snapshotValueKind: String { "integer" }
    }

    /// A model whose properties cannot report their writes: the context compares it with its baseline.
    final class Shelf: PersistentModel {
        static let schemaAttributes: [ModelAttribute<Shelf>] = [
            .attribute("position", \.position), .attribute("label", \.label), .attribute("note", \.note),
        ]
        var persistentModelID = PersistentIdentifier()
        var position = 0
        var label = ""
        var note: String?
        init() {}
    }

    /// How many `Bin` instances are alive.
    static let liveBins = Atomic<Int>(0)

    /// A model whose `@Attribute` properties report their writes, with a value that may fail to convert.
    final class Bin: PersistentModel {
        static let schemaAttributes: [ModelAttribute<Bin>] = [
            .attribute("position", \.position), .attribute("label", \.label), .attribute("size", \.size),
        ]
        var persistentModelID = PersistentIdentifier()
        @Attribute var position = 0
        @Attribute var label = ""
        @Attribute var size = Even(0)
        init() { FetchMaterializationTests.liveBins.add(1, ordering: .relaxed) }
        deinit { FetchMaterializationTests.liveBins.subtract(1, ordering: .relaxed) }
    }

    static func container() throws -> ModelContainer {
        try ModelContainer(
            for: [Shelf.self, Bin.self],
            configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "fetch"))])
    }

    /// Long labels (a `String` of more than 15 bytes lives in its own storage, which the store and the model
    /// share).
    static func label(_ index: Int) -> String { "a label long enough to be stored apart, number \(index)" }

    @Test func fetchedModelsHoldTheStoredValuesAndTheirBaselineIsTheStoredRow() throws {
        let container = try Self.container()
        let setup = ModelContext(container)
        // Enough rows that the fetch makes them in memory order, not in the order it returns them.
        let count = 400
        for index in 0..<count {
            let shelf = Shelf()
            shelf.position = index
            shelf.label = Self.label(index)
            shelf.note = index.isMultiple(of: 3) ? nil : "note \(index)"
            setup.insert(shelf)
        }
        try setup.save()

        let context = ModelContext(container)
        let shelves = try context.fetch(
            FetchDescriptor<Shelf>(sortBy: [SortDescriptor(\.position)]))
        #expect(shelves.map(\.position) == Array(0..<count))
        #expect(shelves.map(\.label) == (0..<count).map(Self.label))
        let notes: [String?] = (0..<count).map { $0.isMultiple(of: 3) ? nil : "note \($0)" }
        #expect(shelves.map(\.note) == notes)
        // Unsorted, the models come in the store's order: the order of its identifiers.
        let unsorted = try ModelContext(container).fetch(FetchDescriptor<Shelf>())
        let stored = try ModelContext(container).fetchIdentifiers(FetchDescriptor<Shelf>())
        #expect(unsorted.map(\.persistentModelID) == stored)
        #expect(stored != shelves.map(\.persistentModelID), "the store's order is not the positions' order")
        // Compared with its baseline, no fetched model has changed: the baseline is the row it was made from.
        #expect(!context.hasChanges)
        // One write makes one update, of that model alone.
        shelves[7].label = "moved"
        #expect(context.hasChanges)
        let before = try #require(try context.fetchHistory(.init()).last?.token)
        try context.save()
        let transactions = try context.fetchHistory(
            HistoryDescriptor(predicate: #Predicate { $0.token > before }))
        let changes = transactions.flatMap(\.changes)
        #expect(changes.count == 1)
        #expect(changes.first?.changedPersistentIdentifier == shelves[7].persistentModelID)
        // The store's other rows are untouched: a fresh fetch reads the same values.
        let again = try ModelContext(container).fetch(
            FetchDescriptor<Shelf>(sortBy: [SortDescriptor(\.position)]))
        let labels = (0..<count).map { $0 == 7 ? "moved" : Self.label($0) }
        #expect(again.map(\.label) == labels)
    }

    @Test func aFetchThatFailsPartWayThrowsTheTypedErrorAndTheStoreIsUnchanged() throws {
        let container = try Self.container()
        let setup = ModelContext(container)
        let count = 400
        for index in 0..<count {
            let bin = Bin()
            bin.position = index
            bin.label = Self.label(index)
            // One bin holds an odd size, which a fetch cannot convert back.
            bin.size = Even(index == 211 ? 7 : Int64(index * 2))
            setup.insert(bin)
        }
        try setup.save()
        let before = Self.liveBins.load(ordering: .relaxed)

        do {
            let context = ModelContext(container)
            #expect {
                // Unsorted: the store returns its rows as they are, and the context's conversion fails.
                try context.fetch(FetchDescriptor<Bin>())
            } throws: { error in
                guard let error = error as? DataStoreError else { return false }
                return error.code == .attributeTypeMismatch && error.entity == "Bin"
                    && error.attribute == "size"
            }
            // The context that failed fetches the other rows.
            #expect(
                try context.fetch(FetchDescriptor<Bin>(predicate: #Predicate { $0.position < 211 })).count
                    == 211)
        }
        // Every model the failed fetch made is gone with its context.
        #expect(Self.liveBins.load(ordering: .relaxed) == before)
        // The rows before and after the one that failed still fetch, with their values.
        let rest = try ModelContext(container).fetch(
            FetchDescriptor<Bin>(
                predicate: #Predicate { $0.position != 211 }, sortBy: [SortDescriptor(\.position)]))
        let kept = (0..<count).filter { $0 != 211 }
        #expect(rest.map(\.position) == kept)
        #expect(rest.map(\.label) == kept.map(Self.label))
        #expect(rest.map(\.size.value) == kept.map { Int64($0 * 2) })
    }
}
