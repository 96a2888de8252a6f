import DataStoreCore
import Foundation
import InMemoryStorage
import StoreTestSupport
import Testing

@testable import DataStoreModels

/// An undo never overwrites another author's work and never writes half a step: each refusal is a typed
/// error, and the store is left as it was.
@Suite struct UndoRefusalTests {
    func ratings(_ container: ModelContainer) throws -> [String: Int] {
        Dictionary(
            uniqueKeysWithValues: try ModelContext(container).fetch(FetchDescriptor<Playlist>()).map {
                ($0.name, $0.rating)
            })
    }

    /// A new context on `container` with an undo manager.
    func undoing(_ container: ModelContainer) -> (ModelContext, ModelUndoManager) {
        let context = ModelContext(container)
        let manager = ModelUndoManager()
        context.undoManager = manager
        return (context, manager)
    }

    @Test func anotherProcessesEditMakesTheUndoThrowAConflictAndWriteNothing() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let container = try musicContainer(directory.url)
        let (context, manager) = undoing(container)
        context.author = "app"
        let list = Playlist(name: "road trip", rating: 1)
        context.insert(list)
        try context.save()
        list.rating = 2
        try context.save()

        // The widget, another process, rates the playlist after the app saved its rating.
        let widget = try ChildProcess(["music-rate", directory.url.path, "road trip", "7", "widget"])
        // Waits on a thread of its own: a synchronous wait would hold one of the cooperative pool's threads.
        #expect(await widget.exitStatus(within: .seconds(60)) == 0)
        #expect(widget.output == ["RATED"], "the widget process answers")
        let history = try context.fetchHistory(HistoryDescriptor()).count

        #expect {
            try manager.undo()
        } throws: { error in
            guard let error = error as? DataStoreError else { return false }
            return error.code == .undoConflict && error.entity == "Playlist" && error.attribute == "rating"
                && error.description.contains("'widget'")
        }
        #expect(try ratings(container) == ["road trip": 7], "the widget's rating stays")
        #expect(try context.fetchHistory(HistoryDescriptor()).count == history, "nothing written")
        #expect(manager.canUndo, "the step stays for a later attempt")
    }

    @Test func anEditOfAnotherAttributeIsNoConflict() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let container = try MusicStore.jsonFile.container(in: directory.url)
        let (context, manager) = undoing(container)
        let list = Playlist(name: "a", rating: 1)
        context.insert(list)
        try context.save()
        list.rating = 3
        try context.save()
        let other = ModelContext(container)
        try #require(try other.fetch(FetchDescriptor<Playlist>()).first).name = "renamed"
        try other.save()
        try manager.undo()
        #expect(try ratings(container) == ["renamed": 1], "the rating undone, the other author's name kept")
    }

    @Test func aUniqueValueTakenSinceMakesTheUndoOfADeleteAConflict() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let container = try MusicStore.inMemory.container(in: directory.url)
        let (context, manager) = undoing(container)
        let list = Playlist(name: "paris", rating: 4)
        context.insert(list)
        try context.save()
        context.delete(list)
        try context.save()
        let other = ModelContext(container)
        other.insert(Playlist(name: "paris", rating: 1))
        try other.save()
        #expect {
            try manager.undo()
        } throws: {
            ($0 as? DataStoreError)?.code == .undoConflict && ($0 as? DataStoreError)?.attribute == "name"
        }
        #expect(try ratings(container) == ["paris": 1], "the new holder of the name is not overwritten")
    }

    @Test func undoAfterEraseOrTrimmedHistoryIsUnavailableAndWritesNothing() throws {
        let store = try InMemoryDataStore(InMemoryStoreConfiguration(name: "music", schema: musicSchema))
        let container = try MusicStore.container(on: store)
        let (context, manager) = undoing(container)
        context.insert(Playlist(name: "a"))
        try context.save()
        context.insert(Playlist(name: "b"))
        try context.save()
        // History trimmed past the newest step's transaction.
        let newest = try #require(try context.fetchHistory(HistoryDescriptor()).last?.token)
        try container.deleteHistory(HistoryDescriptor(predicate: #Predicate { $0.token <= newest }))
        #expect { try manager.undo() } throws: { ($0 as? DataStoreError)?.code == .undoUnavailable }
        #expect(try ratings(container) == ["a": 0, "b": 0])

        manager.removeAllActions()
        context.insert(Playlist(name: "c"))
        try context.save()
        try store.erase()
        #expect { try manager.undo() } throws: { ($0 as? DataStoreError)?.code == .undoUnavailable }
        #expect(try ratings(container).isEmpty)
        #expect(try context.fetchHistory(HistoryDescriptor()).isEmpty, "nothing written after the erase")
        #expect { try manager.redo() } throws: { ($0 as? DataStoreError)?.code == .undoUnavailable }
    }

    @Test func aTransactionOfANewerSchemaIsNotTakenBack() throws {
        // A newer app added a `Mood` entity, which this app's schema does not have.
        let newer = Schema(
            entities: musicSchema.entities + [Schema.Entity(name: "Mood", attributes: [.init(name: "name")])])
        let store = try InMemoryDataStore(InMemoryStoreConfiguration(name: "music", schema: newer))
        let id = PersistentIdentifier(storeIdentifier: "music", entityName: "Mood", primaryKey: "m")
        let token = try #require(
            try store.save(
                DataStoreSaveChangesRequest(inserted: [
                    DataStoreSnapshot(persistentIdentifier: id, values: ["name": .string("calm")])
                ])
            ).token)
        let container = try MusicStore.container(on: store)
        let saved = SavedTransaction(
            store: "music",
            position: CompositeHistoryToken.Component(epoch: token.epoch, sequence: token.sequence))
        #expect {
            _ = try InverseTransaction(saved, in: container)
        } throws: { error in
            guard let error = error as? DataStoreError else { return false }
            return error.code == .undoUnavailable && error.description.contains("newer schema")
        }
    }
}
