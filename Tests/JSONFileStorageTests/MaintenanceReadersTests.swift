@_spi(DataStoreInternals) import DataStoreCore
import DataStoreKit
import Dispatch
import Foundation
import JSONFileStorage
import StoreTestSupport
import Synchronization
import Testing

/// Checkpoints and retention trims write files for as long as the store is large, and readers of the same
/// instance go on meanwhile, answering from the state before the maintenance. Each test stops the store in
/// the middle of its maintenance (an intercepted file operation) and fetches from another thread there: with
/// the state locked across the maintenance's I/O, the fetch would wait for the maintenance to end, which
/// cannot happen while the test waits for the fetch.
@Suite struct MaintenanceReadersTests {
    /// What a fetch started in the middle of maintenance returned, if it returned before the maintenance went on.
    final class Observed: Sendable {
        let titles = Lock<[String]?>(nil)
        let historyCount = Lock<Int?>(nil)
        /// Whether both fetches returned while the maintenance waited.
        let answeredInTime = Lock(false)
    }

    /// Fetches memo `title` and all history from `store` on another thread, waiting at most 10 s (a fetch from
    /// memory takes microseconds; the bound only ends the test when the fetch is blocked).
    static func fetchFromAnotherThread(_ store: JSONFileDataStore, title: String, into observed: Observed) {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            defer { done.signal() }
            let predicate = #Predicate<Memo> { $0.title == title }
            let found = try? store.fetch(
                DataStoreFetchRequest(descriptor: FetchDescriptor<Memo>(predicate: predicate)))
            observed.titles.withLock { $0 = found?.snapshots.map { $0.persistentIdentifier.primaryKey } }
            let history = try? store.fetchHistory(HistoryDescriptor())
            observed.historyCount.withLock { $0 = history?.count }
        }
        let inTime = done.wait(timeout: .now() + 10) == .success
        observed.answeredInTime.withLock { $0 = inTime }
    }

    @Test func aPrimaryKeyFetchAnswersWhileACheckpointWritesItsFiles() throws {
        let directory = try TemporaryDirectory()
        defer {
            FaultInjection.clear(pathContaining: directory.url.path)
            directory.remove()
        }
        var configuration = JSONFileStoreConfiguration(
            name: "memos", schema: Schema([Memo.self]), directory: directory.url, durability: .relaxed)
        configuration.checkpointJournalBytes = 2_048
        configuration.checkpointJournalRatio = nil
        let store = try JSONFileDataStore(configuration)
        var saved = 0
        while store.statistics.checkpoints == 0 {
            try saveMemo("m\(saved)", body: String(repeating: "x", count: 100), to: store)
            saved += 1
        }
        let before = saved
        // The next checkpoint: stop it where it replaces the snapshot, after it wrote the new history segment.
        let observed = Observed()
        FaultInjection.intercept(.rename, pathContaining: directory.snapshot.path) {
            Self.fetchFromAnotherThread(store, title: "m0", into: observed)
        }
        while store.statistics.checkpoints == 1 {
            try saveMemo("m\(saved)", body: String(repeating: "x", count: 100), to: store)
            saved += 1
        }
        #expect(observed.answeredInTime.withLock { $0 }, "the fetches waited for the checkpoint")
        #expect(observed.titles.withLock { $0 } == ["m0"])
        // It answered from the state before the checkpoint: every transaction committed by then.
        let count = try #require(observed.historyCount.withLock { $0 })
        #expect(count >= before && count <= saved)
        #expect(try store.fetchHistory(.init()).count == saved)
        #expect(try openMemoStore(directory.url).modelCount() == saved)
    }

    @Test func aFetchAnswersWhileARetentionTrimSynchronizesItsRecord() throws {
        let directory = try TemporaryDirectory()
        defer {
            FaultInjection.clear(pathContaining: directory.url.path)
            directory.remove()
        }
        var configuration = JSONFileStoreConfiguration(
            name: "memos", schema: Schema([Memo.self]), directory: directory.url, durability: .relaxed)
        configuration.historyRetention = .init(maximumTransactionCount: 8)
        let store = try JSONFileDataStore(configuration)
        let observed = Observed()
        // With relaxed saves, the first fsync of the journal is the trim's `forget` record.
        FaultInjection.intercept(.synchronize, pathContaining: directory.journal.path) {
            Self.fetchFromAnotherThread(store, title: "m3", into: observed)
        }
        for index in 0..<20 { try saveMemo("m\(index)", to: store) }
        #expect(observed.answeredInTime.withLock { $0 }, "the fetches waited for the trim")
        #expect(observed.titles.withLock { $0 } == ["m3"])
        #expect(observed.historyCount.withLock { $0 } != nil)
        #expect(try store.modelCount() == 20)
        #expect(try store.fetchHistory(.init()).count <= 9)
    }
}
