import DataStoreCore
import DataStoreKit
import Foundation
import JSONFileStorage
import StoreTestSupport
import Testing

/// Automatic checkpoints keep the journal near `checkpointJournalBytes` (or the snapshot's size, when that is
/// larger) and lose nothing.
@Suite struct CheckpointTests {
    /// A checkpoint between a history fetch's reading of the store's state and its reading of the history files
    /// (an app's save on another thread, in the sync fault test) replaces the journal the fetch meant to read:
    /// the fetch reads the files again and returns every transaction. Before, that second read locked the
    /// store's state twice, and the process died ("Recursive call to lock Mutex").
    @Test func aHistoryFetchOvertakenByACheckpointReadsTheFilesAgain() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try JSONFileDataStore(
            JSONFileStoreConfiguration(
                name: "memos", schema: Schema([Memo.self]), directory: directory.url, durability: .relaxed))
        let tokens = try (0..<20).map { try #require(try saveMemo("m\($0)", to: store)) }
        let segments = {
            try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter {
                $0.hasPrefix("history-")
            }
        }
        #expect(try segments().isEmpty)
        store.beforeHistoryFilesRead = { try store.compact() }
        #expect(try store.fetchHistory(.init()).map(\.token) == tokens)
        // The hook ran once: the transactions the fetch returned had moved from the journal to a segment.
        #expect(store.beforeHistoryFilesRead == nil)
        #expect(try segments().count == 1)
    }

    /// A save of thousands of models is journaled, and a checkpoint's rows written, in parts on all cores:
    /// reopened from the journal and then from the snapshot, the store holds every model with its values, and
    /// history holds every change, in order.
    @Test func aLargeSaveAndItsCheckpointWrittenInPartsReadBackWhole() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = JSONFileStoreConfiguration(
            name: "memos", schema: Schema([Memo.self]), directory: directory.url, durability: .relaxed)
        configuration.checkpointJournalBytes = nil
        let rows = (0..<9_500).map { index in
            DataStoreSnapshot(
                persistentIdentifier: PersistentIdentifier(
                    storeIdentifier: "memos", entityName: "Memo", primaryKey: "m\(index)"),
                values: [
                    "title": .string("memo \(index)"), "body": .string(index % 7 == 0 ? "\"\n\(index)" : ""),
                ])
        }
        let store = try JSONFileDataStore(configuration)
        _ = try store.save(DataStoreSaveChangesRequest(inserted: rows))
        let expected = Dictionary(uniqueKeysWithValues: rows.map { ($0.persistentIdentifier, $0.values) })
        func check(_ store: JSONFileDataStore) throws {
            let stored = try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Memo>())).snapshots
            let values = Dictionary(uniqueKeysWithValues: stored.map { ($0.persistentIdentifier, $0.values) })
            let same = values == expected
            #expect(same, "\(stored.count) rows read back, \(rows.count) saved")
            let changes = try #require(try store.fetchHistory(.init()).first).changes
            #expect(changes.map(\.changedPersistentIdentifier) == rows.map(\.persistentIdentifier))
        }
        try check(try JSONFileDataStore(configuration))
        try store.compact()
        try check(try JSONFileDataStore(configuration))
    }

    @Test func theJournalStaysNearTheThresholdAndEverythingSurvivesReopening() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = JSONFileStoreConfiguration(
            name: "memos", schema: Schema([Memo.self]), directory: directory.url, durability: .relaxed)
        configuration.checkpointJournalBytes = 4_096
        configuration.checkpointJournalRatio = nil
        let store = try JSONFileDataStore(configuration)
        var tokens: [JSONFileHistoryToken] = []
        var largestJournal = 0
        for index in 0..<300 {
            tokens.append(
                try #require(try saveMemo("m\(index)", body: String(repeating: "x", count: 40), to: store)))
            let size =
                try FileManager.default.attributesOfItem(atPath: directory.journal.path)[.size] as? Int ?? 0
            largestJournal = max(largestJournal, size)
        }
        #expect(store.statistics.checkpoints > 5)
        // One save's record at most past the threshold before the checkpoint that follows it.
        #expect(largestJournal < 4_096 + 1_024, "largest journal: \(largestJournal) bytes")

        let reopened = try JSONFileDataStore(configuration)
        #expect(try reopened.modelCount() == 300)
        #expect(try reopened.fetchHistory(.init()).map(\.token) == tokens)
        // Tokens from before any checkpoint keep working.
        let after = try reopened.fetchHistory(
            HistoryDescriptor(predicate: HistoryPredicates.after(tokens[10])))
        #expect(after.count == 289)
    }

    /// A journal is recognised by its inode and size. Another instance's erase (or checkpoint) replaces it
    /// with a new header-only file, and ext4 hands a freed inode out again at once: two replacements later the
    /// new journal can have the inode of the one this instance read, at the same size, and the instance would
    /// take it for the journal it knows (seen in CI: a reader missed a commit with a checkpoint after every
    /// save). An instance holds the journal its state was read from open, so its inode is never reused.
    @Test func aReplacedJournalIsNeverTakenForTheOneAnInstanceRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let reader = try openMemoStore(directory.url, durability: .relaxed)
        let writer = try openMemoStore(directory.url, durability: .relaxed)
        let stale = try ReplacedFileRounds.firstStaleRound(
            readerEpoch: { try reader.currentToken().epoch }, writerErase: { try writer.erase() },
            writerEpoch: { try writer.currentToken().epoch })
        #expect(stale == nil, "the reader kept an erased epoch in round \(stale ?? -1)")
        // The rounds catch a store that forgets to hold its file open only where freed inodes come back at
        // once: on ext file systems, check that they do here, so that the test cannot pass vacuously.
        if ReplacedFileRounds.isOnExtFileSystem(directory.url) {
            #expect(
                try ReplacedFileRounds.reusesInodes(in: directory.url),
                "no inode was reused: the rounds tested nothing")
        }
    }

    /// A checkpoint (or an erase) replaces the journal; the disk space of the one it replaced is freed then, not
    /// left to the next save. The store kept the old journal open for appending until that save found the new
    /// one, so the file lived on (unlinked, its pages cached) and the save paid for freeing it: a batch delete
    /// after a checkpoint of 100,000 rows spent a fortieth of its time in `close`.
    @Test func aCheckpointLetsGoOfTheJournalItReplaced() throws {
        #if os(Linux)
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let store = try openMemoStore(directory.url, durability: .relaxed)
            _ = try saveMemo("before", to: store)
            let journal = directory.url.appendingPathComponent("journal.jsonl").resolvingSymlinksInPath().path
            func openReplacedJournals() throws -> Int {
                try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count { descriptor in
                    let target = try? FileManager.default.destinationOfSymbolicLink(
                        atPath: "/proc/self/fd/" + descriptor)
                    return target == journal + " (deleted)"
                }
            }
            #expect(try openReplacedJournals() == 0)
            try store.compact()
            #expect(try openReplacedJournals() == 0, "the replaced journal is still open")
            // The next save opens the new journal and appends to it.
            _ = try saveMemo("after", to: store)
            do {
                // Another instance holds the journal it read open (see the test above): gone before the erase.
                let reopened = try openMemoStore(directory.url, durability: .relaxed)
                let titles = try reopened.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Memo>()))
                    .snapshots.map { $0.values["title"] }
                #expect(Set(titles) == [.string("before"), .string("after")])
            }
            // An erase replaces the journal too.
            try store.erase()
            #expect(try openReplacedJournals() == 0, "the journal an erase replaced is still open")
        #endif
    }

    /// A crash after a checkpoint replaced the snapshot but before it replaced the journal leaves a journal
    /// whose transactions a listed segment already holds. Loading skips them, and the next checkpoint must not
    /// copy them into a segment a second time (the kill -9 test saw history read back as 1, 2, 1, 2, 3, …).
    @Test func aCheckpointAfterACrashBetweenSnapshotAndJournalCopiesNothingTwice() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try openMemoStore(directory.url, durability: .relaxed)
        let tokens = try (0..<3).map { try #require(try saveMemo("m\($0)", to: store)) }
        let journal = try recordBytes(of: directory.journal)
        try store.compact()
        try journal.write(to: directory.journal)  // as if the crash came before step 3

        let reopened = try openMemoStore(directory.url, durability: .relaxed)
        #expect(try reopened.fetchHistory(.init()).map(\.token) == tokens)
        let fourth = try #require(try saveMemo("m3", to: reopened))
        try reopened.compact()
        let again = try openMemoStore(directory.url)
        #expect(try again.fetchHistory(.init()).map(\.token) == tokens + [fourth])
        #expect(try again.modelCount() == 4)
        #expect(try again.verify().sequences == [1, 2, 3, 4])
    }

    /// With a snapshot larger than the byte threshold, the journal grows to about the snapshot's size before
    /// a checkpoint (by default), so that a large store does not rewrite every model for each few saves: the
    /// bytes checkpoints write stay about as many as the bytes saved.
    @Test func aLargeSnapshotLetsTheJournalGrowToItsSize() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = JSONFileStoreConfiguration(
            name: "memos", schema: Schema([Memo.self]), directory: directory.url, durability: .relaxed)
        configuration.checkpointJournalBytes = 2_048
        let store = try JSONFileDataStore(configuration)
        // 400 memos of about 100 bytes each, then a checkpoint: a snapshot of about 40 KB.
        for index in 0..<400 {
            _ = try saveMemo("m\(index)", body: String(repeating: "x", count: 40), to: store)
        }
        try store.compact()
        let snapshot = try #require(
            try FileManager.default.attributesOfItem(atPath: directory.snapshot.path)[.size] as? Int)
        #expect(snapshot > 20 * 2_048)
        func edit(_ store: JSONFileDataStore, _ round: Int) throws {
            _ = try store.save(
                DataStoreSaveChangesRequest(updated: [
                    DataStoreSnapshot(
                        persistentIdentifier: PersistentIdentifier(
                            storeIdentifier: "memos", entityName: "Memo", primaryKey: "m\(round % 400)"),
                        values: ["body": .string("again \(round)")])
                ]))
        }
        let before = store.statistics.checkpoints
        var largestJournal = 0
        var journalBeforeCheckpoint = 0
        for round in 0..<600 {
            try edit(store, round)
            let size =
                try FileManager.default.attributesOfItem(atPath: directory.journal.path)[.size] as? Int ?? 0
            if size < largestJournal, journalBeforeCheckpoint == 0 {
                journalBeforeCheckpoint = largestJournal
            }
            largestJournal = max(largestJournal, size)
        }
        // Some checkpoints, each when the journal had passed the snapshot's size and not long after (the save
        // that passes it checkpoints before it returns: the largest journal seen is one record short of it).
        #expect(store.statistics.checkpoints > before)
        #expect(
            journalBeforeCheckpoint > snapshot - 1_024, "checkpointed after \(journalBeforeCheckpoint) bytes")
        #expect(largestJournal < 2 * snapshot, "largest journal: \(largestJournal) bytes")
        // An instance that opens the store reads the snapshot's size too: a journal past the byte threshold but
        // short of the snapshot is not checkpointed on its next save.
        try store.compact()
        for round in 0..<60 { try edit(store, round) }
        let journal =
            try FileManager.default.attributesOfItem(atPath: directory.journal.path)[.size] as? Int ?? 0
        #expect(journal > 2_048 && journal < snapshot, "journal: \(journal) bytes")
        let reopened = try JSONFileDataStore(configuration)
        try edit(reopened, 60)
        #expect(reopened.statistics.checkpoints == 0)
        #expect(try reopened.modelCount() == 400)
    }

    @Test func aThresholdBelowOneByteIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = JSONFileStoreConfiguration(name: "memos", directory: directory.url)
        configuration.checkpointJournalBytes = 0
        #expect {
            try JSONFileDataStore(configuration)
        } throws: { ($0 as? DataStoreError)?.code == .invalidConfiguration }
        configuration.checkpointJournalBytes = 4_096
        for ratio in [0, -1, .infinity, .nan] {
            configuration.checkpointJournalRatio = ratio
            #expect {
                try JSONFileDataStore(configuration)
            } throws: { ($0 as? DataStoreError)?.code == .invalidConfiguration }
        }
    }
}
