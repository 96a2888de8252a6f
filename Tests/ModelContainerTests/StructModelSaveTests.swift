import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import Testing

/// Struct models are values: once saved, the context keeps no registration for them, yet a copy the app still
/// holds names the same model. Saved alone into a context that tracks nothing else, every registration goes at
/// once; saved beside a tracked class model, one by one. Both must leave the same context behind.
@Suite struct StructModelSaveTests {
    static func container() throws -> ModelContainer {
        try ModelContainer(
            for: [Sample.self, ReportingNote.self],
            configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "values"))])
    }

    @Test(arguments: [false, true])
    func savedStructCopiesStillNameTheirModels(besideAClassModel: Bool) throws {
        let container = try Self.container()
        let context = ModelContext(container)
        if besideAClassModel {
            let note = ReportingNote()
            note.title = "tracked"
            context.insert(note)
            try context.save()
        }
        let copies = (0..<5).map { Sample(value: Double($0)) }
        for copy in copies { context.insert(copy) }
        #expect(context.hasChanges)
        try context.save()
        #expect(!context.hasChanges)
        #expect(try context.fetchCount(FetchDescriptor<Sample>()) == 5)

        // A changed copy given to `insert` again is an update of its model, not a second model.
        var changed = copies[2]
        changed.value = 42
        context.insert(changed)
        #expect(context.hasChanges)
        try context.save()
        let values = try ModelContext(container).fetch(FetchDescriptor<Sample>()).map(\.value).sorted()
        #expect(values == [0, 1, 3, 4, 42])

        // And a copy given to `delete` deletes its model.
        context.delete(copies[0])
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Sample>()) == 4)
        #expect(!context.hasChanges)
        if besideAClassModel {
            #expect(
                try ModelContext(container).fetch(FetchDescriptor<ReportingNote>()).map(\.title) == [
                    "tracked"
                ])
        }
    }

    /// New struct models wait unregistered until a save or a question about them (deferred inserts). Every
    /// question a context answers about pending inserts must answer as if they were registered.
    @Test(arguments: [false, true])
    func pendingStructInsertsAnswerEveryQueryBeforeTheirSave(besideAClassModel: Bool) throws {
        let container = try Self.container()
        let context = ModelContext(container)
        var samples = (0..<4).map { Sample(value: Double($0)) }
        for sample in samples { context.insert(sample) }
        if besideAClassModel {
            let note = ReportingNote()
            note.title = "between"
            context.insert(note)
            context.insert(Sample(value: 4))
        }
        let pending: Set<Double> = besideAClassModel ? [0, 1, 2, 3, 4] : [0, 1, 2, 3]
        #expect(context.hasChanges)
        #expect(Set(context.insertedModelsArray.compactMap { ($0 as? Sample)?.value }) == pending)
        // A fetch includes pending inserts.
        #expect(Set(try context.fetch(FetchDescriptor<Sample>()).map(\.value)) == pending)

        // The same value inserted again, changed, stays one pending insert with the new values.
        samples[1].value = 10
        context.insert(samples[1])
        // A pending insert deleted is forgotten.
        context.delete(samples[3])
        let expected: Set<Double> = besideAClassModel ? [0, 10, 2, 4] : [0, 10, 2]
        #expect(Set(context.insertedModelsArray.compactMap { ($0 as? Sample)?.value }) == expected)
        #expect(Set(try context.fetch(FetchDescriptor<Sample>()).map(\.value)) == expected)
        try context.save()
        #expect(!context.hasChanges)
        #expect(Set(try ModelContext(container).fetch(FetchDescriptor<Sample>()).map(\.value)) == expected)
    }

    /// A save of deferred inserts sends them in insertion order, with the class model's insert in its place.
    @Test(arguments: [false, true])
    func deferredInsertsAreSavedInInsertionOrder(besideAClassModel: Bool) throws {
        let container = try Self.container()
        let context = ModelContext(container)
        var inserted: [PersistentIdentifier] = []
        for index in 0..<6 {
            if besideAClassModel, index == 3 {
                let note = ReportingNote()
                context.insert(note)
                inserted.append(note.persistentModelID)
            }
            let sample = Sample(value: Double(index))
            context.insert(sample)
            inserted.append(context.insertedModelsArray.last!.persistentModelID)
        }
        try context.save()
        let transactions = try context.fetchHistory(HistoryDescriptor<ContainerHistoryTransaction>())
        #expect(transactions.count == 1)
        #expect(transactions.first?.changes.map(\.changedPersistentIdentifier) == inserted)
    }

    /// Rolled back before their save, deferred inserts are gone: the next save writes nothing.
    @Test func rolledBackDeferredInsertsAreNotSaved() throws {
        let container = try Self.container()
        let context = ModelContext(container)
        for index in 0..<3 { context.insert(Sample(value: Double(index))) }
        context.rollback()
        #expect(!context.hasChanges)
        #expect(context.insertedModelsArray.isEmpty)
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Sample>()) == 0)
    }

    /// The cost: a run of new struct models and a save registers none of them (the save reads them from the
    /// list of deferred inserts), also beside an update of a tracked class model; the first question about
    /// them registers them all.
    @Test func aSaveOfNewStructModelsRegistersNone() throws {
        let container = try Self.container()
        let context = ModelContext(container)
        for index in 0..<1_000 { context.insert(Sample(value: Double(index))) }
        try context.save()
        #expect(context.deferredInsertsRegistered == 0)
        #expect(!context.hasChanges)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Sample>()) == 1_000)

        let note = ReportingNote()
        context.insert(note)
        try context.save()
        note.title = "edited"
        for index in 0..<10 { context.insert(Sample(value: Double(index))) }
        try context.save()
        #expect(context.deferredInsertsRegistered == 0)
        #expect(!context.hasChanges)
        let fresh = ModelContext(container)
        #expect(try fresh.fetchCount(FetchDescriptor<Sample>()) == 1_010)
        #expect(try fresh.fetch(FetchDescriptor<ReportingNote>()).map(\.title) == ["edited"])

        for index in 0..<10 { context.insert(Sample(value: Double(index))) }
        #expect(context.insertedModelsArray.count == 10)
        #expect(context.deferredInsertsRegistered == 10)
    }
}
