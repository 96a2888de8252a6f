import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import Testing

/// Every kind of bad input gets a typed, descriptive error, and nothing stored changes.
@Suite struct BadInputTests {
    /// A store with two saved notes, plus its state to compare against afterwards.
    func makeSeededStore() throws -> (InMemoryDataStore, [InMemoryHistoryTransaction]) {
        let store = try makeNoteStore()
        try saveNote("one", to: store)
        try saveNote("two", to: store)
        return (store, try store.fetchHistory(.init()))
    }

    func expectUnchanged(_ store: InMemoryDataStore, history: [InMemoryHistoryTransaction]) throws {
        #expect(try store.fetchHistory(.init()) == history)
        #expect(store.modelCount == 2)
    }

    @Test func savingAnUpdateForAModelNeverInsertedThrowsModelNotFound() throws {
        let (store, history) = try makeSeededStore()
        let ghost = PersistentIdentifier(storeIdentifier: "notes", entityName: "Note", primaryKey: "ghost")
        let insert = DataStoreSnapshot(
            persistentIdentifier: .init(storeIdentifier: "notes", entityName: "Note", primaryKey: "three"),
            values: ["title": .string("three")])
        #expect(throws: DataStoreError.modelNotFound(store: "notes", identifier: ghost)) {
            try store.save(
                DataStoreSaveChangesRequest(
                    inserted: [insert], updated: [DataStoreSnapshot(persistentIdentifier: ghost, values: [:])]
                ))
        }
        #expect(DataStoreError.modelNotFound(store: "notes", identifier: ghost).description.contains("ghost"))
        try expectUnchanged(store, history: history)
    }

    @Test func invalidSavesAreRejectedWhole() throws {
        let (store, history) = try makeSeededStore()
        let one = PersistentIdentifier(storeIdentifier: "notes", entityName: "Note", primaryKey: "one")
        let requests: [(DataStoreSaveChangesRequest, String)] = [
            (
                .init(
                    updated: [.init(persistentIdentifier: one, values: ["title": .string("x")])],
                    deleted: [.init(persistentIdentifier: one, values: [:])]), "appears more than once"
            ),
            (
                .init(inserted: [
                    .init(
                        persistentIdentifier: .init(
                            storeIdentifier: "notes", entityName: "Ghost", primaryKey: "g"), values: [:])
                ]),
                "no entity named 'Ghost'"
            ),
            (
                .init(updated: [.init(persistentIdentifier: one, values: ["colour": .string("red")])]),
                "no attribute 'colour'"
            ),
            (
                .init(inserted: [
                    .init(
                        persistentIdentifier: .init(
                            storeIdentifier: "other", entityName: "Note", primaryKey: "z"), values: [:])
                ]),
                "names store 'other'"
            ),
            (
                .init(inserted: [.init(persistentIdentifier: one, values: ["title": .string("one")])]),
                "already in the store"
            ),
        ]
        for (request, message) in requests {
            #expect {
                try store.save(request)
            } throws: { error in
                (error as? DataStoreError)?.description.contains(message) == true
            }
        }
        try expectUnchanged(store, history: history)
    }

    @Test func aPredicateThatThrowsDuringEvaluationIsReportedTyped() throws {
        let (store, history) = try makeSeededStore()
        // Both transactions have no author, so the forced unwrap throws.
        #expect {
            try store.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.author! == "x" }))
        } throws: { error in
            guard let error = error as? DataStoreError else { return false }
            return error.code == .predicateEvaluationFailed && error.store == "notes"
        }
        try expectUnchanged(store, history: history)

        let container = try makeNoteContainer()
        let context = ModelContext(container)
        context.insert(Note(title: "x"))
        try context.save()
        #expect(throws: DataStoreError.self) {
            try context.fetch(FetchDescriptor<Note>(predicate: #Predicate { [1][$0.rank + 5] == 1 }))
        }
    }

    @Test func malformedAndForeignTokensThroughTheModelLayer() throws {
        let container = try makeNoteContainer()
        let context = ModelContext(container)
        context.insert(Note(title: "x"))
        try context.save()
        let token = try #require(try context.fetchHistory(.init()).last?.token)

        // Malformed JSON.
        #expect {
            try HistoryTokenCoding.decode(
                CompositeHistoryToken.self,
                fromJSON: Data(#"{"v":1,"kind":"composite","stores":[{"store":"notes"}]}"#.utf8))
        } throws: { error in
            if case DataStoreError.malformedHistoryToken = error { return true }
            return false
        }
        // A token naming a store the container lacks.
        let unknown = CompositeHistoryToken(components: ["elsewhere": .init(epoch: UUID(), sequence: 1)])
        #expect(throws: DataStoreError.unknownStore(store: "elsewhere")) {
            try context.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > unknown }))
        }
        // A token of the right store name but another incarnation.
        let otherEpoch = CompositeHistoryToken(components: ["notes": .init(epoch: UUID(), sequence: 1)])
        #expect {
            try context.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > otherEpoch }))
        } throws: { error in
            (error as? DataStoreError)?.isFromErasedOrRecreatedStore == true
        }
        #expect(
            try context.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > token })).isEmpty)
    }
}
