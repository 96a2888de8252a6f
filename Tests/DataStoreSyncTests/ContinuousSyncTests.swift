import DataStoreCore
import DataStoreModels
import DataStoreSync
import Foundation
import InMemoryStorage
import StoreTestSupport
import Synchronization
import Testing

/// Continuous mode: engines started once keep two devices in step, woken by commits (the stores' signals),
/// not by a timer.
@Suite struct ContinuousSyncTests {
    /// Device a's commits reach device b with nobody calling `sync()`, each pushed once; stopping ends the
    /// runs.
    @Test func commitsOnOneDeviceReachTheOther() async throws {
        let lab = try SyncLab(server: try InMemoryDataStore(.init(name: "server", schema: SyncSchemas.trips)))
        defer { lab.remove() }
        let a = try lab.device("a")
        let b = try lab.device("b")
        // The first pull of each is a full copy, which counts no transactions: do it before the counting, with
        // a server that has history (a pull from a server without history is a full copy again).
        try a.edit { $0.insert(SyncTrip(name: "Oslo", destination: "Oslo", nights: 2)) }
        try a.sync()
        try b.sync()
        let pushes = a.engine.statusUpdates()
        let pulls = b.engine.statusUpdates()
        a.engine.start()
        b.engine.start()
        defer {
            a.engine.stop()
            b.engine.stop()
        }
        try a.edit { $0.insert(SyncTrip(name: "Lisbon", destination: "Lisbon", nights: 3)) }
        try a.edit { try #require(try a.trip("Lisbon", in: $0)).nights = 4 }
        // Counters, each awaited for at most 30 s: a pushed both transactions, and b applied both.
        let pushed = await Self.first(in: pushes, within: 30) { $0.pushedTransactionCount >= 3 }
        let pulled = await Self.first(in: pulls, within: 30) { $0.pulledTransactionCount >= 2 }
        #expect(pushed, "a pushed its two transactions: \(a.engine.status)")
        #expect(pulled, "b applied a's two transactions: \(b.engine.status)")
        #expect(try b.state() == a.state())
        #expect(try b.state().contains { $0.hasSuffix("Lisbon|Lisbon|4||") })
        #expect(a.engine.status.pushedTransactionCount == 3)
        #expect(b.engine.status.pushedTransactionCount == 0)
    }

    /// After a failed sync the engine waits before it tries again (0.1 s, doubling), and the app's own commits
    /// do not cut the wait short: an app saving many times a second would otherwise have the engine try an
    /// unreachable server at every save. Once the server answers, the end of the wait syncs what the app saved
    /// meanwhile, with no commit needed.
    @Test func failedSyncsWaitWhileTheAppKeepsCommitting() async throws {
        let lab = try SyncLab(server: try InMemoryDataStore(.init(name: "server", schema: SyncSchemas.trips)))
        defer { lab.remove() }
        let a = try lab.device("a")
        try a.edit { $0.insert(SyncTrip(name: "Oslo", destination: "Oslo", nights: 2)) }
        try a.sync()
        let attempts = Mutex(0)
        let down = Mutex(true)
        a.engine.beforeSync = {
            attempts.withLock { $0 += 1 }
            if down.withLock({ $0 }) {
                throw DataStoreError.storageUnavailable(path: "server", reason: "unreachable (test)")
            }
        }
        let pushes = a.engine.statusUpdates()
        a.engine.start()
        defer { a.engine.stop() }
        // About a second of saving, 40 commits, while the server is down.
        for nights in 3..<43 {
            try a.edit { try #require(try a.trip("Oslo", in: $0)).nights = nights }
            try await Task.sleep(for: .milliseconds(25))
        }
        let tried = attempts.withLock { $0 }
        // Waits of 0.1, 0.2, 0.4 and 0.8 s fit five attempts in a second, and ten need 51 s, however slow the
        // saves are here; woken by every commit, the engine tried once per commit (41 times).
        #expect(tried <= 10, "\(tried) sync attempts during 40 commits to an unreachable server")
        down.withLock { $0 = false }
        let pushed = await Self.first(in: pushes, within: 60) { $0.pushedTransactionCount >= 41 }
        #expect(pushed, "the 40 commits were pushed once the server answered: \(a.engine.status)")
        #expect(try a.state().contains { $0.hasSuffix("Oslo|Oslo|42||") })
    }

    /// Whether `sequence` yields an element satisfying `condition` within `seconds`.
    static func first(
        in sequence: AsyncStream<SyncStatus>, within seconds: Double,
        where condition: @escaping @Sendable (SyncStatus) -> Bool
    ) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await status in sequence where condition(status) { return true }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return false
            }
            let found = await group.next() ?? false
            group.cancelAll()
            return found
        }
    }
}
