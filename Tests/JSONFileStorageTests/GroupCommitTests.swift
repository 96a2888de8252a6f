@_spi(DataStoreInternals) import DataStoreCore
import DataStoreKit
import Foundation
import Synchronization
import Testing

@testable import JSONFileStorage

/// Saves from several threads that arrive together share one append and one `fdatasync`, and none is
/// acknowledged before its record is durable.
@Suite(.serialized) struct GroupCommitTests {
    /// Runs `writers` threads at once (threads of their own: `concurrentPerform` would run only as many as
    /// there are cores), each making `saves` one-memo saves; returns the titles whose save returned, and the
    /// number that threw.
    func saveConcurrently(writers: Int, saves: Int, to store: JSONFileDataStore) -> (Set<String>, Int) {
        let acknowledged = Lock<(Set<String>, Int)>(([], 0))
        let finished = DispatchGroup()
        for writer in 0..<writers {
            finished.enter()
            Thread.detachNewThread {
                for index in 0..<saves {
                    let title = "w\(writer)-\(index)"
                    let saved = (try? saveMemo(title, to: store)) != nil
                    acknowledged.withLock {
                        if saved { $0.0.insert(title) } else { $0.1 += 1 }
                    }
                }
                finished.leave()
            }
        }
        finished.wait()
        return acknowledged.withLock { $0 }
    }

    @Test func eightWritersShareFdatasyncsAndEverySaveIsATransaction() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try openMemoStore(directory.url)
        let (saved, failed) = saveConcurrently(writers: 8, saves: 100, to: store)
        #expect(failed == 0)
        #expect(saved.count == 800)
        let statistics = store.statistics
        #expect(statistics.committedSaves == 800)
        #expect(statistics.journalSynchronizations < 800, "\(statistics.journalSynchronizations) fdatasyncs")
        #expect(statistics.journalSynchronizations > 0)

        let reopened = try openMemoStore(directory.url)
        let history = try reopened.fetchHistory(.init())
        #expect(history.count == 800)
        #expect(history.map(\.token.sequence) == Array(1...800))
        #expect(Set(history.flatMap(\.changes).map(\.changedPersistentIdentifier.primaryKey)) == saved)
    }

    @Test func aFailedFdatasyncFailsItsWholeBatchAndOnlyAcknowledgedSavesSurvive() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try openMemoStore(directory.url)
        let fragment = directory.url.lastPathComponent
        FaultInjection.inject(.synchronize, pathContaining: fragment, count: 6)
        defer { FaultInjection.clear(pathContaining: fragment) }
        let (saved, failed) = saveConcurrently(writers: 8, saves: 40, to: store)
        #expect(failed >= 6)
        #expect(saved.count + failed == 320)

        // What a reader sees, in this instance and after reopening, is exactly what was acknowledged.
        let titles = { (store: JSONFileDataStore) in
            Set(
                try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Memo>())).snapshots
                    .map(\.persistentIdentifier.primaryKey))
        }
        #expect(try titles(store) == saved)
        let reopened = try openMemoStore(directory.url)
        #expect(try titles(reopened) == saved)
        #expect(try reopened.fetchHistory(.init()).count == saved.count)
    }
}
