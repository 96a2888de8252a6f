import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import Testing

/// A save of new models registers each class model as saved with the values it sent, moved out of the
/// request rather than copied. Each model must get its own values, including when struct models (which are
/// not registered) lie between them in the request: a model holding no values, or another model's, would
/// read as changed, and its next save would send attributes nobody edited.
@Suite struct SavedInsertBaselineTests {
    @Test func eachSavedInsertKeepsItsOwnValuesAsItsBaseline() throws {
        let container = try ModelContainer(
            for: [PlainNote.self, Sample.self],
            configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "baselines"))])
        let context = ModelContext(container)
        var notes: [PlainNote] = []
        for index in 0..<6 {
            let note = PlainNote()
            note.title = "title \(index)"
            note.body = "body \(index)"
            note.rank = index
            context.insert(note)
            notes.append(note)
            // Struct models between the class models: positions in the request differ from positions among
            // the registered models.
            if index % 2 == 0 { context.insert(Sample(value: Double(index))) }
        }
        try context.save()
        // Plain properties: the context finds changes by comparing each model with its baseline.
        #expect(!context.hasChanges)

        notes[3].body = "edited"
        try context.save()
        let last = try #require(try context.fetchHistory(.init()).last)
        #expect(last.changes.count == 1)
        let update = try #require(last.changes.first)
        #expect(update.kind == .update)
        #expect(update.changedPersistentIdentifier == notes[3].persistentModelID)
        #expect(update.updatedAttributes == ["body"])

        let stored = try ModelContext(container).fetch(
            FetchDescriptor<PlainNote>(sortBy: [SortDescriptor(\.rank)]))
        #expect(stored.map(\.body) == ["body 0", "body 1", "body 2", "edited", "body 4", "body 5"])
        #expect(stored.map(\.title) == (0..<6).map { "title \($0)" })
    }
}
