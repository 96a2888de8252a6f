import Foundation
import InMemoryStorage
import Testing

@testable import DataStoreCore
@testable import DataStoreModels

@Suite struct ModelContextTests {
    @Test func uniqueInsertUpdatesTheExistingModelAndHistoryRecordsAnUpdate() throws {
        let container = try makeNoteContainer()
        let context = ModelContext(container)
        let original = Note(title: "Groceries", body: "milk", rank: 1)
        context.insert(original)
        try context.save()
        let start = try #require(try context.fetchHistory(.init()).last?.token)

        let other = ModelContext(container)
        let duplicate = Note(title: "Groceries", body: "milk, eggs", rank: 1)
        other.insert(duplicate)
        try other.save()
        // The insert landed on the existing model, and the duplicate now carries its identifier.
        #expect(duplicate.persistentModelID == original.persistentModelID)

        let notes = try ModelContext(container).fetch(FetchDescriptor<Note>())
        #expect(notes.count == 1)
        #expect(notes.first?.body == "milk, eggs")

        let changes = try context.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > start }))
            .flatMap(\.changes)
        #expect(changes.count == 1)
        guard case .update(let update as HistoryUpdate<Note>) = changes.first else {
            Issue.record("expected an update, got \(String(describing: changes.first))")
            return
        }
        #expect(update.updatedAttributeNames == ["body"])
        #expect(update.changedPersistentIdentifier == original.persistentModelID)
    }

    @Test func anUpdateThatDuplicatesAUniqueValueIsRejectedAndNothingChanges() throws {
        let container = try makeNoteContainer()
        let context = ModelContext(container)
        context.insert(Note(title: "A"))
        let second = Note(title: "B")
        context.insert(second)
        try context.save()
        let historyBefore = try context.fetchHistory(.init()).count

        second.title = "A"
        #expect(
            throws: DataStoreError.uniqueConstraintViolation(
                store: "notes", entity: "Note", attribute: "title", value: "\"A\"")
        ) {
            try context.save()
        }
        #expect(try context.fetchHistory(.init()).count == historyBefore)
        #expect(
            try ModelContext(container).fetch(FetchDescriptor<Note>()).map(\.title).sorted() == ["A", "B"])
        context.rollback()
        #expect(second.title == "B")
        #expect(!context.hasChanges)
    }

    @Test func enumerateVisitsEveryMatchInBatchesAndGuardsAgainstEscapingMutations() throws {
        let container = try makeNoteContainer()
        let setup = ModelContext(container)
        for index in 0..<23 { setup.insert(Note(title: "e\(index)", rank: index)) }
        try setup.save()

        let context = ModelContext(container)
        var visited: [Int] = []
        try context.enumerate(
            FetchDescriptor<Note>(predicate: #Predicate { $0.rank >= 3 }, sortBy: [SortDescriptor(\.rank)]),
            batchSize: 5
        ) { note in
            visited.append(note.rank)
        }
        #expect(visited == Array(3..<23))
        // Clean models of finished batches are released, not kept tracked.
        #expect(context.registry.isEmpty)

        // A dirty context refuses to enumerate...
        context.insert(Note(title: "pending"))
        #expect(throws: DataStoreError.unsavedChangesDuringEnumeration(changeCount: 1)) {
            try context.enumerate(FetchDescriptor<Note>()) { _ in }
        }
        // ...unless escaping mutations are allowed; then it includes the pending insert (includePendingChanges).
        var count = 0
        try context.enumerate(FetchDescriptor<Note>(), allowEscapingMutations: true) { _ in count += 1 }
        #expect(count == 24)
        var savedOnly = FetchDescriptor<Note>()
        savedOnly.includePendingChanges = false
        count = 0
        try context.enumerate(savedOnly, allowEscapingMutations: true) { _ in count += 1 }
        #expect(count == 23)

        // A block that mutates a model escapes its batch: enumerate throws after that batch.
        let clean = ModelContext(container)
        var seen = 0
        #expect(throws: DataStoreError.self) {
            try clean.enumerate(FetchDescriptor<Note>(sortBy: [SortDescriptor(\.rank)]), batchSize: 4) {
                note in
                seen += 1
                if note.rank == 1 { note.body = "changed" }
            }
        }
        #expect(seen == 4)
    }

    @Test func fetchAppliesPredicateSortOffsetAndLimit() throws {
        let container = try makeNoteContainer()
        let context = ModelContext(container)
        for index in 0..<20 {
            context.insert(
                Note(title: "f\(index)", body: index.isMultiple(of: 2) ? "even" : "odd", rank: index))
        }
        try context.save()
        let descriptor = FetchDescriptor<Note>(
            predicate: #Predicate { $0.body == "even" }, sortBy: [SortDescriptor(\.rank, order: .reverse)],
            fetchOffset: 2, fetchLimit: 3)
        #expect(try context.fetch(descriptor).map(\.rank) == [14, 12, 10])
        #expect(
            try context.fetchCount(FetchDescriptor<Note>(predicate: #Predicate { $0.body == "even" })) == 10)
        let ids = try context.fetchIdentifiers(descriptor)
        #expect(ids.count == 3 && ids.allSatisfy { $0.entityName == "Note" && $0.storeIdentifier == "notes" })
        // The same instance comes back for the same identifier.
        let first = try #require(try context.fetch(descriptor).first)
        #expect(try context.fetch(descriptor).first === first)
    }

    @Test func structModelsAreUpdatedByInsertingTheChangedValue() throws {
        let container = try makeNoteContainer()
        let context = ModelContext(container)
        var reading = Reading(sensor: "t1", value: 20.5)
        context.insert(reading)
        try context.save()
        // A saved struct is a value: nothing stays tracked, so later saves do not compare it.
        #expect(context.registry.isEmpty)
        var fetched = try #require(try context.fetch(FetchDescriptor<Reading>()).first)
        #expect(fetched.value == 20.5)
        fetched.value = 21
        #expect(!context.hasChanges)  // a struct copy is not tracked until inserted again
        context.insert(fetched)
        #expect(context.hasChanges)
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Reading>()).map(\.value) == [21])
        // The caller's original copy still holds the unresolved identifier; it resolves to the same model.
        reading.value = 22
        context.insert(reading)
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Reading>()).map(\.value) == [22])
        context.delete(reading)
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Reading>()) == 0)
    }

    @Test func rollbackDiscardsInsertsDeletesAndChanges() throws {
        let container = try makeNoteContainer()
        let context = ModelContext(container)
        let kept = Note(title: "kept", body: "v1")
        context.insert(kept)
        try context.save()
        #expect(!context.hasChanges)

        kept.body = "v2"
        context.insert(Note(title: "new"))
        context.delete(kept)
        #expect(context.hasChanges)
        context.rollback()
        #expect(!context.hasChanges)
        #expect(kept.body == "v1")
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Note>()).map(\.title) == ["kept"])
        #expect(try context.fetchHistory(.init()).count == 1)
    }

    @Test func manyTasksSavingAtOnceAreEachRecordedExactlyOnce() async throws {
        let container = try makeNoteContainer()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    let context = ModelContext(container)
                    context.author = "task\(task)"
                    for index in 0..<50 {
                        context.insert(Note(title: "t\(task)-\(index)"))
                        try context.save()
                    }
                }
            }
            try await group.waitForAll()
        }
        let history = try ModelContext(container).fetchHistory(.init())
        #expect(history.count == 400)
        #expect(history.map(\.storeSequence) == Array(1...400))
        for task in 0..<8 {
            #expect(history.filter { $0.author == "task\(task)" }.count == 50)
        }
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Note>()) == 400)
    }
}

@Suite struct HistoryUpdatesTests {
    @Test func cancellingTheConsumerReleasesTheObserver() async throws {
        let store = try makeNoteStore()
        try saveNote("first", to: store)
        let consumer = Task {
            var seen = 0
            for try await _ in store.historyUpdates(after: nil) { seen += 1 }
            return seen
        }
        // Wait until the observer is registered, without timing assumptions.
        while store.observerCount == 0 { await Task.yield() }
        consumer.cancel()
        _ = try? await consumer.value
        #expect(store.observerCount == 0)
    }

    @Test func erasingEndsTheSequences() async throws {
        let store = try makeNoteStore()
        let consumer = Task {
            var seen = 0
            for try await _ in store.historyUpdates(after: nil) { seen += 1 }
            return seen
        }
        while store.observerCount == 0 { await Task.yield() }
        try saveNote("one", to: store)
        try store.erase()
        #expect(try await consumer.value == 1)
        #expect(store.observerCount == 0)
    }
}
