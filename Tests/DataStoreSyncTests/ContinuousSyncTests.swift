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
        // When each sync attempt began, while the server was down.
        let attempts = Mutex<[ContinuousClock.Instant]>([])
        let down = Mutex(true)
        a.engine.beforeSync = {
            guard down.withLock({ $0 }) else { return }
            attempts.withLock { $0.append(.now) }
            throw DataStoreError.storageUnavailable(path: "server", reason: "unreachable (test)")
        }
        let pushes = a.engine.statusUpdates()
        a.engine.start()
        defer { a.engine.stop() }
        // About a second of saving, a commit every 25 ms, while the server is down; on until two attempts failed
        // (a starved engine may not have tried yet). Bounded by time, not by a count of commits: on a loaded
        // machine 40 commits took two minutes, the delay grew to its 30 s cap, and the recovery waited it out.
        let saving = ContinuousClock.now
        var nights = 2
        while ContinuousClock.now - saving < .seconds(1) || attempts.withLock({ $0.count }) < 2,
            ContinuousClock.now - saving < .seconds(60)
        {
            nights += 1
            try a.edit { try #require(try a.trip("Oslo", in: $0)).nights = nights }
            try await Task.sleep(for: .milliseconds(25))
        }
        let commits = nights - 2
        let tried = attempts.withLock { $0 }
        #expect(tried.count >= 2, "a failed sync was tried again while the app saved")
        // After the n-th failure in a row the next attempt waits 0.1 s × 2^(n-1), 30 s at most, whatever the
        // commits: a slow machine only makes the gaps longer. Woken by every commit, the engine tried once per
        // commit, 25 to 50 ms apart (41 attempts in 40 commits).
        var delay = 0.0
        for (index, (earlier, later)) in zip(tried, tried.dropFirst()).enumerated() {
            delay = min(max(delay * 2, 0.1), 30)
            #expect(
                later - earlier >= .seconds(delay * 0.9),
                "attempt \(index + 2) of \(tried.count) came \(later - earlier) after the one before, not \(delay) s"
            )
        }
        down.withLock { $0 = false }
        let pushed = await Self.first(in: pushes, within: 60) { $0.pushedTransactionCount >= 1 + commits }
        #expect(pushed, "the \(commits) commits were pushed once the server answered: \(a.engine.status)")
        #expect(try a.state().contains { $0.hasSuffix("Oslo|Oslo|\(nights)||") })
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
