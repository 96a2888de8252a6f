import Foundation
import InMemoryStorage
import Testing

@testable import DataStoreCore
@testable import DataStoreModels

/// A class model with a floating-point attribute, for NaN.
final class Gauge: PersistentModel {
    static let schemaAttributes: [ModelAttribute<Gauge>] = [
        .attribute("name", \.name, options: [.unique]), .attribute("level", \.level),
    ]
    var persistentModelID = PersistentIdentifier()
    var name = ""
    var level = 0.0
    init() {}
    init(name: String, level: Double) {
        self.name = name
        self.level = level
    }
}

/// Model-layer defects found by review, each reproduced first.
@Suite struct DefectRegressionTests {
    @Test func editsToAnUpsertedClassInstanceAreSaved() throws {
        let container = try makeNoteContainer()
        let context = ModelContext(container)
        let original = Note(title: "Groceries", body: "milk")
        context.insert(original)
        try context.save()

        // The same context inserts a second instance with the taken unique title: an upsert.
        let duplicate = Note(title: "Groceries", body: "milk, eggs")
        context.insert(duplicate)
        try context.save()
        #expect(duplicate.persistentModelID == original.persistentModelID)
        #expect(original.body == "milk, eggs")

        // Later edits to either instance are saved.
        duplicate.body = "bread"
        #expect(context.hasChanges)
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Note>()).map(\.body) == ["bread"])
        original.rank = 7
        try context.save()
        let stored = try ModelContext(container).fetch(FetchDescriptor<Note>())
        #expect(stored.map(\.rank) == [7])
        #expect(stored.map(\.body) == ["bread"])
        #expect(!context.hasChanges)
    }

    @Test func aNaNValueIsNotAChangeOnEverySave() throws {
        let container = try ModelContainer(
            for: [Gauge.self],
            configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "gauges"))])
        let context = ModelContext(container)
        let gauge = Gauge(name: "g", level: .nan)
        context.insert(gauge)
        try context.save()
        #expect(!context.hasChanges)
        let before = try context.fetchHistory(.init()).count
        try context.save()
        try context.save()
        #expect(try context.fetchHistory(.init()).count == before)

        // NaN to 1.5 and back are real changes.
        gauge.level = 1.5
        #expect(context.hasChanges)
        try context.save()
        gauge.level = .nan
        try context.save()
        #expect(try context.fetchHistory(.init()).count == before + 2)
        #expect(!context.hasChanges)
    }

    @Test func uniqueViolationsPrintTheValueAsWritten() throws {
        let store = try makeNoteStore()
        try saveNote("A", to: store)
        try saveNote("B", to: store)
        let id = PersistentIdentifier(storeIdentifier: "notes", entityName: "Note", primaryKey: "B")
        do {
            _ = try store.save(
                DataStoreSaveChangesRequest(
                    updated: [
                        DataStoreSnapshot(
                            persistentIdentifier: id,
                            values: ["title": .string("A"), "body": .string(""), "rank": .integer(0)])
                    ]))
            Issue.record("the update was accepted")
        } catch {
            #expect(
                error as? DataStoreError
                    == .uniqueConstraintViolation(
                        store: "notes", entity: "Note", attribute: "title", value: "\"A\""))
            #expect(String(describing: error).contains(#"title = "A""#))
        }
        #expect(SnapshotValue.integer(3).userDescription == "3")
        #expect(SnapshotValue.date(Date(timeIntervalSince1970: 0)).userDescription == "1970-01-01T00:00:00Z")
        #expect(SnapshotValue.array([.string("x"), .null]).userDescription == #"["x", nil]"#)
    }
}
