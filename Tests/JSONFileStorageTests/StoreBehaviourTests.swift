import DataStoreCore
import DataStoreKit
import Foundation
import JSONFileStorage
import StoreTestSupport
import Testing

@Suite struct StoreBehaviourTests {
    @Test func aReadOnlyStoreNeverWrites() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let writer = try openMemoStore(directory.url)
        for index in 0..<3 { try saveMemo("m\(index)", to: writer) }
        let before = try fingerprint(directory.url)

        let reader = try openMemoStore(directory.url, readOnly: true)
        #expect(throws: DataStoreError.readOnlyStore(store: "memos")) { try saveMemo("x", to: reader) }
        #expect(throws: DataStoreError.readOnlyStore(store: "memos")) { try reader.erase() }
        #expect(throws: DataStoreError.readOnlyStore(store: "memos")) { try reader.compact() }
        #expect(try reader.fetchHistory(.init()).count == 3)
        #expect(try fingerprint(directory.url) == before)
    }

    @Test func readersPickUpOtherInstancesCommitsCheaply() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let writer = try openMemoStore(directory.url)
        let reader = try openMemoStore(directory.url, readOnly: true)
        #expect(try reader.modelCount() == 0)
        try saveMemo("a", to: writer)
        try saveMemo("b", to: writer)
        #expect(try reader.fetchHistory(.init()).count == 2)
        #expect(reader.statistics.fullReloads == 1)  // only the initial open
        #expect(reader.statistics.incrementalRefreshes >= 1)

        // Compaction replaces the journal; readers notice the new file and reload once.
        try writer.compact()
        #expect(try reader.fetchHistory(.init()).count == 2)
        #expect(reader.statistics.fullReloads == 2)
    }

    @Test func deleteHistoryReclaimsSpaceAndExpiresTokens() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try openMemoStore(directory.url)
        var tokens: [JSONFileHistoryToken] = []
        for index in 0..<200 {
            tokens.append(
                try #require(try saveMemo("m\(index)", body: String(repeating: "x", count: 100), to: store)))
        }
        let sizeBefore = try directorySize(directory.url)
        let cut = tokens[179]
        try store.deleteHistory(HistoryDescriptor(predicate: #Predicate { $0.token <= cut }))
        let sizeAfter = try directorySize(directory.url)
        #expect(sizeAfter < sizeBefore)

        let reopened = try openMemoStore(directory.url)
        #expect(try reopened.fetchHistory(.init()).map(\.token) == Array(tokens[180...]))
        #expect(try reopened.modelCount() == 200)
        let old = tokens[10]
        #expect {
            try reopened.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > old }))
        } throws: { error in
            guard let error = error as? DataStoreError, error.code == .historyTokenExpired else {
                return false
            }
            return error.store == "memos" && error.tokenSequence == 11 && error.oldestValidSequence == 180
        }
        // Saving after compaction continues the sequence.
        #expect(try saveMemo("next", to: reopened)?.sequence == 201)
    }

    @Test func eraseStartsANewEpochInEveryProcessView() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try openMemoStore(directory.url)
        let other = try openMemoStore(directory.url)
        let old = try #require(try saveMemo("a", to: store))
        try store.erase()
        #expect(try other.modelCount() == 0)
        #expect(throws: DataStoreError.self) {
            try other.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > old }))
        }
        #expect(try other.currentToken().epoch != old.epoch)
    }

    /// A save costs O(change): bytes written per save do not grow with the store (from 1,000 models to 100,000;
    /// 20,000 under a sanitizer). Counted, not timed.
    @Test func bytesWrittenPerSaveStayFlatAsTheStoreGrows() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try openMemoStore(directory.url, durability: .relaxed)
        func bulkInsert(_ range: Range<Int>) throws {
            for start in stride(from: range.lowerBound, to: range.upperBound, by: 1_000) {
                let snapshots = (start..<min(start + 1_000, range.upperBound)).map { index in
                    DataStoreSnapshot(
                        persistentIdentifier: .init(
                            storeIdentifier: "memos", entityName: "Memo", primaryKey: "k\(index)"),
                        values: ["title": .string("k\(index)"), "body": .string("")])
                }
                _ = try store.save(DataStoreSaveChangesRequest(inserted: snapshots))
            }
        }
        func bytesForOneSave() throws -> Int64 {
            let before = store.statistics.journalBytesWritten
            try saveMemo("probe-\(UUID().uuidString.prefix(8))", body: "ten bytes!", to: store)
            return store.statistics.journalBytesWritten - before
        }
        try bulkInsert(0..<1_000)
        let small = try bytesForOneSave()
        let total = TestScale.rounds(100_000, underSanitizer: 20_000)
        try bulkInsert(1_000..<total)
        #expect(try store.modelCount() == total + 1)
        let large = try bytesForOneSave()
        #expect(small > 0 && small < 1_000)
        // The sequence and change numbers grow by a few digits, nothing more.
        #expect(abs(large - small) <= 8)
    }

    func directorySize(_ url: URL) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: url.path).reduce(0) { total, name in
            let attributes = try FileManager.default.attributesOfItem(
                atPath: url.appendingPathComponent(name).path)
            return total + ((attributes[.size] as? Int) ?? 0)
        }
    }

    @Test func aLockHeldTooLongGivesStoreLockedAndCurrentReadersDoNotWait() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = JSONFileStoreConfiguration(
            name: "memos", schema: Schema([Memo.self]), directory: directory.url)
        configuration.busyTimeout = .milliseconds(200)
        let store = try JSONFileDataStore(configuration)
        try saveMemo("a", to: store)
        // Another process's writer holds the lock (as during its fsync) for longer than the busy timeout.
        let other = try FileLock(path: directory.url.appendingPathComponent("lock").path, readOnly: false)
        let lockPath = directory.url.appendingPathComponent("lock").path
        let (saveError, count, history) = try other.withLock(.exclusive, timeout: .zero) {
            () throws -> ((any Error)?, Int, Int) in
            var saveError: (any Error)?
            do { try saveMemo("b", to: store) } catch { saveError = error }
            // Nothing changed on disk, so a reader answers from memory without waiting for the lock.
            return (saveError, try store.modelCount(), try store.fetchHistory(.init()).count)
        }
        #expect(saveError as? DataStoreError == .storeLocked(path: lockPath))
        #expect(count == 1)
        #expect(history == 1)
        try saveMemo("b", to: store)
        #expect(try store.modelCount() == 2)
    }

    @Test func aRemovedStoreDirectoryStaysRemoved() throws {
        let directory = try TemporaryDirectory()
        let store = try openMemoStore(directory.url)
        try saveMemo("a", to: store)
        try FileManager.default.removeItem(at: directory.url)
        // A read answers from what the store read (no writer changed the files: the change count in the lock
        // file it holds open is unchanged), as an open SQLite connection to a removed file does; a save
        // needs the files, and throws.
        #expect(try store.modelCount() == 1)
        #expect(throws: DataStoreError.self) { try saveMemo("b", to: store) }
        // No call re-created the lock file (or anything else) in the removed directory.
        #expect(!FileManager.default.fileExists(atPath: directory.url.path))
    }
}
