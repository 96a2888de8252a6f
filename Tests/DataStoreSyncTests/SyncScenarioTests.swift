import DataStoreCore
import Foundation
import InMemoryStorage
import JSONFileStorage
import StoreTestSupport
import Testing

/// Two devices (JSON file stores) and a server store (in memory here; PostgreSQL in `PostgresSyncTests`), 200
/// rounds of random edits on all three, pushes and pulls in random order, engines restarted now and then. The
/// devices skip fsync (`.relaxed`): what is tested is the sync's logic, not power loss.
@Suite struct SyncScenarioTests {
    /// At the end all three hold the same notes; every app transaction reached the server exactly once; no
    /// pulled transaction was pushed back.
    @Test(arguments: [UInt64(1), 2])
    func twoDevicesAndAServerConverge(seed: UInt64) throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let server = try InMemoryDataStore(.init(name: "server", schema: SyncNote.schema))
        let outcome = try SyncScenario.run(
            rounds: 200, seed: seed, remote: server, makeDevice: { try Self.device($0, in: directory) })
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
    }

    /// The server's history is deleted every 15 rounds: devices that fall behind find their token expired,
    /// resynchronise from a full copy, and still converge.
    @Test func devicesBehindATrimmedServerResynchroniseAndConverge() throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let server = try InMemoryDataStore(.init(name: "server", schema: SyncNote.schema))
        let outcome = try SyncScenario.run(
            rounds: 200, seed: 3, remote: server, trimServerEvery: 15,
            makeDevice: { try Self.device($0, in: directory) })
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
        #expect(outcome.resynchronisations > 0)
    }

    /// Device `index`'s JSON file store, in a folder of `directory`.
    static func device(_ index: Int, in directory: ScratchDirectory) throws -> JSONFileDataStore {
        try JSONFileDataStore(
            .init(
                name: "device\(index)", schema: SyncNote.schema,
                directory: directory.url.appendingPathComponent("device\(index)"), durability: .relaxed))
    }
}

/// A directory under the system's temporary directory, removed by ``remove()``.
struct ScratchDirectory {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "sync-tests-\(UUID().uuidString)", isDirectory: true)

    init() throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
