import DataStoreCore
import DataStoreModels
import DataStoreSync
import Foundation
import InMemoryStorage
import JSONFileStorage
import StoreTestSupport
import Testing

/// The sync made from store configurations, and a container over it: the seeds' one-line configuration with a
/// server you own.
@Suite struct ConfiguredSyncTests {
    /// Both stores are opened with the bookkeeping added to their schemas; the app's container saves to the
    /// device store, and the sync carries the save to the server and on to another device.
    @Test func aContainerOverASyncedConfigurationSyncsItsSaves() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let sync = try JSONFileStoreConfiguration(
            name: "phone", directory: directory.url.appendingPathComponent("phone"), durability: .relaxed
        ).syncing(
            with: InMemoryStoreConfiguration(name: "server"), deviceName: "phone",
            models: [SyncTrip.self, SyncItem.self])
        #expect(sync.local.schema.entity(named: SyncCursor.entityName) != nil)
        #expect(sync.server.schema.entity(named: SyncCursor.entityName) != nil)
        let container = try ModelContainer(
            for: [SyncTrip.self, SyncItem.self], configurations: [ModelConfiguration(syncing: sync)])
        let context = ModelContext(container)
        context.insert(SyncTrip(name: "Lisbon", destination: "Lisbon", nights: 3))
        try context.save()
        try sync.sync()
        #expect(
            try SyncLab<InMemoryDataStore>.state(of: sync.server).contains {
                $0.hasSuffix("Lisbon|Lisbon|3||")
            })
        let lab = try SyncLab(server: sync.server)
        defer { lab.remove() }
        let laptop = try lab.device("laptop")
        try laptop.sync()
        #expect(try laptop.state() == SyncLab<InMemoryDataStore>.state(of: sync.local))
    }

    /// A server configuration with a schema of its own (a newer app version's) keeps it, with the bookkeeping
    /// added.
    @Test func aServerSchemaIsKeptAndGetsTheBookkeeping() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let sync = try JSONFileStoreConfiguration(
            name: "old", directory: directory.url.appendingPathComponent("old"), durability: .relaxed
        ).syncing(
            with: InMemoryStoreConfiguration(name: "server", schema: Schema([SyncNoteVersion2.self])),
            deviceName: "old", models: [SyncNote.self])
        let attributes = sync.server.schema.entity(named: "SyncNote")?.attributes.map(\.name) ?? []
        #expect(attributes.contains("color"))
        #expect(sync.server.schema.entity(named: SyncCursor.entityName) != nil)
    }
}
