import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import JSONFileStorage
import StoreTestSupport

/// The music schema's stores, one of each kind the undo tests run on.
enum MusicStore: String, CaseIterable, Sendable, CustomStringConvertible {
    case inMemory, jsonFile

    var description: String { rawValue }

    static let schema = musicSchema

    /// A fresh store of this kind named `name` under `directory` (relaxed durability: these tests are about
    /// history, not fsync, and make thousands of saves).
    func open(_ name: String = "music", in directory: URL) throws -> any HistoryProvidingStore {
        switch self {
        case .inMemory:
            try InMemoryDataStore(InMemoryStoreConfiguration(name: name, schema: Self.schema))
        case .jsonFile:
            try JSONFileDataStore(
                .init(
                    name: name, schema: Self.schema, directory: directory.appendingPathComponent(name),
                    durability: .relaxed))
        }
    }

    /// A container over a fresh store of this kind.
    func container(in directory: URL) throws -> ModelContainer {
        try Self.container(on: open(in: directory))
    }

    /// A container over `store`.
    static func container(on store: any HistoryProvidingStore) throws -> ModelContainer {
        try ModelContainer(
            for: [Playlist.self, Song.self], configurations: [ModelConfiguration(store: store)])
    }
}

/// Every row of the music store, by identifier: what two states are compared by.
func musicRows(_ store: some DataStore) throws -> [PersistentIdentifier: [String: SnapshotValue]] {
    var rows: [PersistentIdentifier: [String: SnapshotValue]] = [:]
    for snapshot in try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Playlist>())).snapshots
        + store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Song>())).snapshots
    {
        rows[snapshot.persistentIdentifier] = snapshot.values
    }
    return rows
}

/// A temporary directory for one test, removed by `remove()`.
struct TemporaryDirectory {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("undo-tests-\(UUID().uuidString)")
    func remove() { try? FileManager.default.removeItem(at: url) }
}
