import Foundation
import InMemoryStorage
import Testing

@testable import DataStoreCore
@testable import DataStoreModels

/// Small SwiftData habits the seeds rely on.
@Suite struct SwiftDataParityTests {
    @Test func modelForReturnsAPlaceholderForADeletedModelSoTheSeedsReachTheirDeleteBranch() throws {
        let container = try makeNoteContainer()
        let context = ModelContext(container)
        let note = Note(title: "gone", body: "text", rank: 3)
        context.insert(note)
        try context.save()
        let id = note.persistentModelID
        context.delete(note)
        try context.save()

        let reader = ModelContext(container)
        // Seed 001: `guard let item = context.model(for: id) as? Item else { continue }`.
        guard let placeholder = reader.model(for: id) as? Note else {
            Issue.record("model(for:) did not return a Note")
            return
        }
        #expect(placeholder.persistentModelID == id)
        #expect(placeholder.title == "" && placeholder.rank == 0)  // attributes read as defaults
        #expect(try reader.existingModel(for: id) == nil)
        let foreign = PersistentIdentifier(storeIdentifier: "notes", entityName: "Unknown", primaryKey: "1")
        #expect(reader.model(for: foreign) is MissingModel)
    }

    @Test func getValueForKeyReadsAnAttribute() {
        var reading = Reading(sensor: "a", value: 2.5)
        #expect(reading.getValue(forKey: \.value) == 2.5)
        reading.setValue(forKey: \.sensor, to: "b")
        #expect(reading.getValue(forKey: \.sensor) == "b")
    }

    @Test func aPredicateCanAskWhichEntitiesATransactionChanged() throws {
        let container = try makeNoteContainer()
        let context = ModelContext(container)
        context.insert(Note(title: "n"))
        try context.save()
        context.insert(Reading(sensor: "s", value: 1))
        try context.save()
        let readings = try context.fetchHistory(
            HistoryDescriptor(
                predicate: #Predicate { transaction in
                    transaction.changes.contains { $0.changedPersistentIdentifier.entityName == "Reading" }
                }))
        #expect(readings.map { $0.changes.map(\.changedPersistentIdentifier.entityName) } == [["Reading"]])
    }
}
