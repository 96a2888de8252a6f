import DataStoreCore
import Foundation
import InMemoryStorage
import JSONFileStorage
import StoreTestSupport
import Testing

/// Two devices (JSON file stores) and a server store (in memory here; PostgreSQL in `PostgresSyncTests`), 200
/// rounds of random edits on all three with random sync order. The devices skip fsync (`.relaxed`): what is
/// tested is the sync's logic, not power loss, and 2,000 fsyncs would take most of the run.
@Suite struct SyncTests {
    /// At the end all three hold the same notes; no device pushed a transaction twice or copied one twice; no
    /// pulled change was pushed back (the server's transactions by each device are exactly what it pushed).
    @Test(arguments: [UInt64(1), 2])
    func twoDevicesAndAServerConverge(seed: UInt64) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try InMemoryDataStore(.init(name: "server", schema: SyncNote.schema))
        let outcome = try SyncScenario.run(
            rounds: 200, seed: seed, directory: directory.url, remote: server,
            makeDevice: { try Self.device($0, in: directory) })
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
    }

    /// The server keeps 10 transactions: devices that fall behind find their token expired and resynchronise
    /// from a full snapshot, and still converge.
    @Test func devicesBehindATrimmedServerResynchroniseAndConverge() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try InMemoryDataStore(
            .init(name: "server", schema: SyncNote.schema, maximumHistoryCount: 10))
        let outcome = try SyncScenario.run(
            rounds: 200, seed: 3, directory: directory.url, remote: server,
            makeDevice: { try Self.device($0, in: directory) })
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
        #expect(outcome.resynchronisations > 0)
    }

    /// Device `index`'s JSON file store, in a folder of `directory`.
    static func device(_ index: Int, in directory: TemporaryDirectory) throws -> JSONFileDataStore {
        try JSONFileDataStore(
            .init(
                name: "device\(index)", schema: SyncNote.schema,
                directory: directory.url.appendingPathComponent("device\(index)"), durability: .relaxed))
    }
}

/// A directory under the system's temporary directory, removed by ``remove()``.
struct TemporaryDirectory {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "sync-tests-\(UUID().uuidString)", isDirectory: true)

    init() throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
