import DataStoreCore
import DataStoreModels
import DataStoreSync
import Foundation
import InMemoryStorage
import JSONFileStorage
import StoreTestSupport
import Testing

/// The status an app shows, and the errors it shows there: values move as documented (Docs/Sync.md), and a
/// failed sync is visible until a sync succeeds, without touching the device's models.
@Suite struct SyncStatusTests {
    /// A device with two unpushed transactions syncs: the stream shows the push with two pending, then none
    /// pending and two pushed, then the pull, then a completed sync with both tokens and no error.
    @Test func statusMovesThroughPushAndPull() async throws {
        let lab = try SyncLab(server: try InMemoryDataStore(.init(name: "server", schema: SyncSchemas.trips)))
        defer { lab.remove() }
        let a = try lab.device("a")
        try a.edit { $0.insert(SyncTrip(name: "Lisbon", destination: "Lisbon", nights: 3)) }
        try a.edit { $0.insert(SyncTrip(name: "Oslo", destination: "Oslo", nights: 2)) }
        let updates = a.engine.statusUpdates()
        let before = a.engine.status
        #expect(before == SyncStatus(), "nothing has happened yet: \(before)")
        try a.sync()
        var seen: [SyncStatus] = []
        for await status in updates {
            seen.append(status)
            if status.lastSuccessfulSync != nil { break }
        }
        #expect(seen.first == SyncStatus(), "the stream starts with the status at subscription")
        #expect(seen.contains { $0.isPushing && $0.pendingTransactionCount == 2 }, "\(seen)")
        #expect(
            seen.contains {
                $0.isPushing && $0.pushedTransactionCount == 2 && $0.pendingTransactionCount == 0
            })
        let pushedFirst = seen.firstIndex { $0.pushedTransactionCount == 2 } ?? .max
        let pulling = seen.firstIndex { $0.isPulling } ?? -1
        #expect(pushedFirst < pulling, "the pull comes after the push: \(seen)")
        let last = try #require(seen.last)
        #expect(!last.isSynchronizing && last.lastError == nil)
        #expect(last.pushedToken != nil && last.pulledToken != nil)
        #expect(a.engine.status == last)
    }

    /// The server's cursor for the device holds bytes that are no token: the sync fails with
    /// `malformedHistoryToken`, the status shows it, the device's models are untouched; once the cursor is
    /// repaired the next sync succeeds and clears the error.
    @Test func aMalformedCursorFailsVisiblyAndChangesNothing() throws {
        let server = try InMemoryDataStore(.init(name: "server", schema: SyncSchemas.trips))
        let lab = try SyncLab(server: server)
        defer { lab.remove() }
        let a = try lab.device("a")
        try a.edit { $0.insert(SyncTrip(name: "Lisbon", destination: "Lisbon", nights: 3)) }
        try a.sync()
        try a.edit { $0.insert(SyncTrip(name: "Oslo", destination: "Oslo", nights: 2)) }
        let cursor = PersistentIdentifier(
            storeIdentifier: "server", entityName: "SyncCursor", primaryKey: "device:a")
        _ = try server.save(
            DataStoreSaveChangesRequest(
                updated: [
                    DataStoreSnapshot(
                        persistentIdentifier: cursor, values: ["token": .string("{not a token")])
                ]))
        let held = try a.state()
        #expect { try a.sync() } throws: { ($0 as? DataStoreError)?.code == .malformedHistoryToken }
        #expect(a.engine.status.lastError?.code == "malformedHistoryToken")
        #expect(!a.engine.status.isSynchronizing)
        #expect(try a.state() == held)
        // Repaired: an empty cursor means "nothing received", and the device's history is complete.
        _ = try server.save(
            DataStoreSaveChangesRequest(
                updated: [DataStoreSnapshot(persistentIdentifier: cursor, values: ["token": .string("")])]))
        try a.sync()
        #expect(a.engine.status.lastError == nil)
        #expect(try a.state() == SyncLab<InMemoryDataStore>.state(of: server))
    }

    /// A device that synced with one server is pointed at another: its pull token names the first server, so
    /// the sync fails with `historyTokenFromAnotherStore` and changes nothing on either side.
    @Test func aTokenFromAnotherServerIsATypedError() throws {
        let first = try InMemoryDataStore(.init(name: "server", schema: SyncSchemas.trips))
        let lab = try SyncLab(server: first)
        defer { lab.remove() }
        let a = try lab.device("a")
        try a.edit { $0.insert(SyncTrip(name: "Lisbon", destination: "Lisbon", nights: 3)) }
        try a.sync()
        let other = try InMemoryDataStore(.init(name: "other-server", schema: SyncSchemas.trips))
        let engine = try SyncEngine(
            local: a.store, server: other, device: "a", models: [SyncTrip.self, SyncItem.self])
        let held = try a.state()
        #expect { try engine.pull() } throws: {
            ($0 as? DataStoreError)?.code == .historyTokenFromAnotherStore
        }
        #expect(engine.status.lastError?.code == "historyTokenFromAnotherStore")
        #expect(try a.state() == held)
        #expect(try other.fetchHistory(HistoryDescriptor()).isEmpty)
    }

    /// A store whose schema lacks the bookkeeping entity, or a synced entity, is refused when the engine is
    /// made, naming what to add.
    @Test func aSchemaWithoutTheBookkeepingIsRefused() throws {
        let server = try InMemoryDataStore(.init(name: "server", schema: SyncSchemas.trips))
        let bare = try InMemoryDataStore(.init(name: "bare", schema: Schema([SyncTrip.self, SyncItem.self])))
        #expect {
            _ = try SyncEngine(
                local: bare, server: server, device: "a", models: [SyncTrip.self, SyncItem.self])
        } throws: { error in
            let error = error as? DataStoreError
            return error?.code == .invalidConfiguration && "\(error!)".contains("SyncCursor")
        }
        let notes = try InMemoryDataStore(.init(name: "notes", schema: SyncNote.schema))
        #expect {
            _ = try SyncEngine(local: notes, server: server, device: "a", models: [SyncNote.self])
        } throws: { ($0 as? DataStoreError)?.code == .invalidConfiguration }
    }
}
