import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import Testing

/// A fetch moves each snapshot the store returned into the model it makes and into the context's record of what
/// is saved, and writes the models into the result's buffer as it goes: the models hold the stored values, the
/// context's baseline is the stored row, and a fetch that fails part-way gives back the typed error and nothing
/// half-made.
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

    /// A model whose `@Attribute` properties report their writes, with a value that may fail to convert.
    final class Bin: PersistentModel {
        static let schemaAttributes: [ModelAttribute<Bin>] = [
            .attribute("position", \.position), .attribute("label", \.label), .attribute("size", \.size),
        ]
        var persistentModelID = PersistentIdentifier()
        @Attribute var position = 0
        @Attribute var label = ""
        @Attribute var size = Even(0)
        init() {}
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
        for index in 0..<50 {
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
        #expect(shelves.map(\.position) == Array(0..<50))
        #expect(shelves.map(\.label) == (0..<50).map(Self.label))
        let notes: [String?] = (0..<50).map { $0.isMultiple(of: 3) ? nil : "note \($0)" }
        #expect(shelves.map(\.note) == notes)
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
        let labels = (0..<50).map { $0 == 7 ? "moved" : Self.label($0) }
        #expect(again.map(\.label) == labels)
    }

    @Test func aFetchThatFailsPartWayThrowsTheTypedErrorAndTheStoreIsUnchanged() throws {
        let container = try Self.container()
        let setup = ModelContext(container)
        for index in 0..<20 {
            let bin = Bin()
            bin.position = index
            bin.label = Self.label(index)
            // The twelfth bin holds an odd size, which a fetch cannot convert back.
            bin.size = Even(index == 11 ? 7 : Int64(index * 2))
            setup.insert(bin)
        }
        try setup.save()

        let context = ModelContext(container)
        #expect {
            try context.fetch(FetchDescriptor<Bin>(sortBy: [SortDescriptor(\.position)]))
        } throws: { error in
            guard let error = error as? DataStoreError else { return false }
            return error.code == .attributeTypeMismatch && error.entity == "Bin" && error.attribute == "size"
        }
        // The rows before and after the one that failed still fetch, with their values.
        let rest = try ModelContext(container).fetch(
            FetchDescriptor<Bin>(
                predicate: #Predicate { $0.position != 11 }, sortBy: [SortDescriptor(\.position)]))
        let kept = (0..<20).filter { $0 != 11 }
        #expect(rest.map(\.position) == kept)
        #expect(rest.map(\.label) == kept.map(Self.label))
        #expect(rest.map(\.size.value) == kept.map { Int64($0 * 2) })
        // And the context that failed fetches them too.
        #expect(
            try context.fetch(FetchDescriptor<Bin>(predicate: #Predicate { $0.position < 11 })).count == 11)
    }
}
