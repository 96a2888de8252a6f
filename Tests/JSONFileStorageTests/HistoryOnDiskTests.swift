import DataStoreCore
import DataStoreKit
import Foundation
import Testing

@testable import JSONFileStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// History lives in its files, read through the sparse index: opening reads the checkpoint and the journal
/// since it, and a fetch reads about what it returns. Costs are counted in bytes read, never timed.
@Suite struct HistoryOnDiskTests {
    static let models = 10_000
    static let transactions = 200_000

    /// A checkpoint as a store with 200,000 saves behind it leaves one: a snapshot of the 10,000 memos and
    /// one segment holding the transactions (the first 10,000 insert a memo each, the others update one),
    /// with its sparse index. Written directly: replaying 200,000 saves takes most of a minute in a debug
    /// build. The lines are spelled as `TransactionCodec` writes them; the fetches below decode them.
    static func writeCheckpoint(in directory: URL) throws {
        let files = StoreDirectory(directory)
        let epoch = UUID()
        let schema = Schema([Memo.self])
        try JournalIO.createJournal(
            files: files, name: "memos", epoch: epoch, schema: schema, schemaGeneration: 0)
        let start = 800_000_000.0
        var segment = HistoryIndex.File(name: "history-1-\(transactions)-test.jsonl")
        var lines = Data()
        for sequence in 1...transactions {
            let model = (sequence - 1) % models
            let identifier = #"{"entity":"Memo","key":"m\#(model)","store":"memos"}"#
            let change =
                sequence <= models
                ? #"{"identifier":\#(identifier),"kind":"insert","updatedAttributes":[],"values":{"body":{"string":""},"title":{"string":"m\#(model)"}}}"#
                : #"{"identifier":\#(identifier),"kind":"update","updatedAttributes":["body"],"values":{"body":{"string":"v\#(sequence)"}}}"#
            let record =
                #"{"body":{"author":"bulk","bundle":"tests","changes":[\#(change)],"firstChange":\#(sequence),"process":"1","sequence":\#(sequence),"timestamp":\#(start + Double(sequence))},"type":"transaction"}"#
            segment.append(
                sequence: Int64(sequence),
                timestamp: Date(timeIntervalSinceReferenceDate: start + Double(sequence)),
                offset: Int64(lines.count))
            lines.append(RecordFraming.frame(Data(record.utf8)))
        }
        segment.end = Int64(lines.count)
        try lines.write(to: URL(fileURLWithPath: files.file(segment.name)))
        let rows = (0..<models).map { model in
            DataStoreSnapshot(
                persistentIdentifier: PersistentIdentifier(
                    storeIdentifier: "memos", entityName: "Memo", primaryKey: "m\(model)"),
                values: [
                    "title": .string("m\(model)"), "body": .string("v\(transactions - models + 1 + model)"),
                ])
        }
        let snapshot = JournalRecord.SnapshotRecord(
            format: ReplayedState.formatVersion, store: "memos", epoch: epoch, sequence: Int64(transactions),
            nextChange: Int64(transactions + 1), oldestValid: 0,
            lastTimestamp: Date(timeIntervalSinceReferenceDate: start + Double(transactions)), rows: rows,
            history: [], schema: schema, schemaGeneration: 0, segments: [segment], forgottenThrough: 0,
            forgotten: [])
        try AtomicFileWriter.replace(files.snapshot, with: try JournalIO.encode(.snapshot(snapshot)))
    }

    func size(_ url: URL) throws -> Int64 {
        try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int64 ?? 0
    }

    @Test func openingReadsTheCheckpointAndTheJournalSinceItAndAFetchReadsAboutItsResult() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.writeCheckpoint(in: directory.url)
        let historyBytes = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
            .filter { $0.hasPrefix("history-") }
            .reduce(Int64(0)) { $0 + (try size(directory.url.appendingPathComponent($1))) }
        do {
            // The store itself adds to it: 20 saves in the journal, a checkpoint, 20 more.
            let store = try openMemoStore(directory.url, durability: .relaxed)
            for index in 0..<20 { try saveMemo("late-\(index)", to: store) }
            try store.compact()
            for index in 20..<40 { try saveMemo("late-\(index)", to: store) }
        }
        let snapshotBytes = try size(directory.snapshot)
        let journalSince = try size(directory.journal)
        #expect(snapshotBytes * 4 < historyBytes, "the snapshot holds models and the index, not history")

        let store = try openMemoStore(directory.url)
        #expect(store.statistics.bytesRead <= snapshotBytes + journalSince)
        #expect(try store.modelCount() == Self.models + 40)
        #expect(try store.oldestValidSequence() == 0)

        // After a token near the end of the big segment: 50 transactions (10 from it, 20 from the segment the
        // checkpoint wrote, 20 from the journal), for about their own bytes and a block of the index.
        let latest = try store.currentToken()
        let near = JSONFileHistoryToken(
            storeIdentifier: "memos", epoch: latest.epoch, sequence: Int64(Self.transactions - 10))
        var before = store.statistics.bytesRead
        let recent = try store.fetchHistory(HistoryDescriptor(predicate: HistoryPredicates.after(near)))
        #expect(recent.map(\.token.sequence) == Array(near.sequence + 1...latest.sequence))
        let resultBytes = Int64(recent.count) * 400  // a generous size for one of these records
        let small = store.statistics.bytesRead - before
        #expect(small <= resultBytes + 2 * Int64(JSONFileHistorySource.chunkBytes), "read \(small) bytes")

        // A thousand transactions from the middle: their bytes and a block, not what comes before them.
        before = store.statistics.bytesRead
        let middle = JSONFileHistoryToken(storeIdentifier: "memos", epoch: latest.epoch, sequence: 100_000)
        var descriptor = HistoryDescriptor<JSONFileHistoryTransaction>(
            predicate: HistoryPredicates.after(middle))
        descriptor.fetchLimit = 1_000
        let page = try store.fetchHistory(descriptor)
        #expect(page.map(\.token.sequence) == Array(100_001...101_000))
        let perRecord = historyBytes / Int64(Self.transactions)
        let pageRead = store.statistics.bytesRead - before
        #expect(
            pageRead <= 1_000 * perRecord + 2 * HistoryIndex.Mark.spacingBytes, "read \(pageRead) bytes")
        // The tail this instance wrote itself comes from its bounded cache of recent transactions: no read.
        let last = try store.currentToken()
        try saveMemo("cached", to: store)
        before = store.statistics.bytesRead
        let tail = try store.fetchHistory(HistoryDescriptor(predicate: HistoryPredicates.after(last)))
        #expect(tail.map(\.token.sequence) == [last.sequence + 1])
        #expect(store.statistics.bytesRead == before)
        // The oldest transactions are there too.
        descriptor = HistoryDescriptor(
            predicate: HistoryPredicates.after(
                JSONFileHistoryToken(storeIdentifier: "memos", epoch: latest.epoch, sequence: 0)))
        descriptor.fetchLimit = 3
        let oldest = try store.fetchHistory(descriptor)
        #expect(oldest.map(\.token.sequence) == [1, 2, 3])
        #expect(oldest.first?.changes.first?.changedPersistentIdentifier.primaryKey == "m0")
    }

    /// A store with `saves` memos whose history is in segments (a checkpoint every few saves).
    func checkpointedStore(_ directory: URL, saves: Int) throws -> (JSONFileDataStore, [JSONFileHistoryToken])
    {
        var configuration = JSONFileStoreConfiguration(
            name: "memos", schema: Schema([Memo.self]), directory: directory, durability: .relaxed)
        configuration.checkpointJournalBytes = 2_048
        configuration.checkpointJournalRatio = nil
        let store = try JSONFileDataStore(configuration)
        let tokens = try (0..<saves).map {
            try #require(try saveMemo("m\($0)", body: "body \($0)", to: store))
        }
        return (store, tokens)
    }

    func segmentNames(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasPrefix("history-")
        }
        .sorted()
    }

    /// The bounded cache of recent transactions does not keep one with more changes than it holds (a batch
    /// delete of thousands): the tail after it is read from the journal, the same transactions as before, and
    /// the transactions after it are cached again.
    @Test func aTransactionBiggerThanTheRecentCacheIsReadFromTheJournal() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = JSONFileStoreConfiguration(
            name: "memos", schema: Schema([Memo.self]), directory: directory.url, durability: .relaxed)
        configuration.recentHistoryChanges = 8
        let store = try JSONFileDataStore(configuration)
        func memos(_ range: Range<Int>) -> [DataStoreSnapshot] {
            range.map { index in
                DataStoreSnapshot(
                    persistentIdentifier: PersistentIdentifier(
                        storeIdentifier: "memos", entityName: "Memo", primaryKey: "m\(index)"),
                    values: ["title": .string("m\(index)"), "body": .string("")])
            }
        }
        /// The tail after `token`, and the bytes reading it took.
        func tail(after token: JSONFileHistoryToken) throws -> (changes: [Int], bytes: Int64) {
            let before = store.statistics.bytesRead
            let transactions = try store.fetchHistory(
                HistoryDescriptor(predicate: HistoryPredicates.after(token)))
            return (transactions.map(\.changes.count), store.statistics.bytesRead - before)
        }
        let start = try store.currentToken()
        let small = try #require(try store.save(DataStoreSaveChangesRequest(inserted: memos(0..<3))).token)
        #expect(try tail(after: start) == ([3], 0))
        let big = try #require(try store.save(DataStoreSaveChangesRequest(inserted: memos(3..<23))).token)
        let afterSmall = try tail(after: small)
        #expect(afterSmall.changes == [20])
        #expect(afterSmall.bytes > 0, "a transaction of 20 changes is read from the journal")
        _ = try store.save(DataStoreSaveChangesRequest(inserted: memos(23..<25)))
        #expect(try tail(after: big) == ([2], 0))
        #expect(try tail(after: start).changes == [3, 20, 2])
    }

    @Test func aDamagedOrMissingHistoryFileIsATypedErrorAndNothingIsWritten() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, _) = try checkpointedStore(directory.url, saves: 60)
        let segments = try segmentNames(directory.url)
        #expect(segments.count >= 2)
        let first = directory.url.appendingPathComponent(try #require(segments.first))

        // A flipped byte inside a segment: the fetch that reads it names the file; the rows are untouched.
        var bytes = try Data(contentsOf: first)
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: first)
        let before = try fingerprint(directory.url)
        #expect {
            try store.fetchHistory(HistoryDescriptor())
        } throws: { error in
            (error as? DataStoreError)?.code == .corruptStoreFile
                && "\(error)".contains(first.lastPathComponent)
        }
        #expect(try store.modelCount() == 60)
        #expect(try fingerprint(directory.url) == before)

        // A segment cut at a record boundary (a whole record missing at its end): opening says which, and
        // writes nothing.
        let last = directory.url.appendingPathComponent(try #require(segments.last))
        let whole = try Data(contentsOf: last)
        let lines = whole.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        #expect(lines.count >= 2)
        try whole.prefix(whole.count - lines[lines.count - 1].count - 1).write(to: last)
        let cut = try fingerprint(directory.url)
        #expect {
            try openMemoStore(directory.url)
        } throws: { error in
            (error as? DataStoreError)?.code == .corruptStoreFile
                && "\(error)".contains(last.lastPathComponent)
        }
        #expect(try fingerprint(directory.url) == cut)
        try whole.write(to: last)

        // A listed segment that is gone: opening says which, and writes nothing.
        try FileManager.default.removeItem(at: first)
        let withoutIt = try fingerprint(directory.url)
        #expect {
            try openMemoStore(directory.url)
        } throws: { error in
            (error as? DataStoreError)?.code == .corruptStoreFile && "\(error)".contains("missing")
        }
        #expect(try fingerprint(directory.url) == withoutIt)
        #expect(before.count == withoutIt.count + 1)

        // A damaged snapshot is refused the same way.
        var snapshot = try Data(contentsOf: directory.snapshot)
        snapshot[snapshot.count / 2] ^= 0x01
        try snapshot.write(to: directory.snapshot)
        #expect {
            try openMemoStore(directory.url)
        } throws: { ($0 as? DataStoreError)?.code == .corruptStoreFile }
    }

    @Test func aCheckpointThatFailsLeavesTheStoreWorkingFromTheJournalAndSaysWhy() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, early) = try checkpointedStore(directory.url, saves: 20)
        #expect(store.statistics.checkpoints > 0)
        let fragment = directory.url.path + "/history-"
        FaultInjection.inject(.write, pathContaining: fragment, errno: ENOSPC)
        var tokens = early
        for index in 20..<60 {
            // Every save succeeds; the checkpoints after them fail.
            tokens.append(try #require(try saveMemo("m\(index)", to: store)))
        }
        FaultInjection.clear(pathContaining: fragment)
        // Tried again as the journal grew by an eighth of the threshold, not at each of the 40 saves.
        #expect(store.statistics.failedMaintenance > 0)
        #expect(store.statistics.failedMaintenance < 40, "\(store.statistics.failedMaintenance) attempts")
        #expect(store.statistics.lastMaintenanceError?.code == .storageUnavailable)
        #expect("\(store.statistics.lastMaintenanceError.map { "\($0)" } ?? "")".contains("history-"))
        #expect(try store.fetchHistory(HistoryDescriptor()).map(\.token) == tokens)
        // No temporary file is left, and the journal holds what the failed checkpoints could not move.
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(!names.contains { $0.contains(".tmp-") })
        #expect(try size(directory.journal) > 2_048)

        // With room again, one of the next few saves checkpoints and the report clears.
        var index = 60
        while store.statistics.lastMaintenanceError != nil && index < 70 {
            tokens.append(try #require(try saveMemo("m\(index)", to: store)))
            index += 1
        }
        #expect(store.statistics.lastMaintenanceError == nil)
        #expect(try size(directory.journal) < 2_048)
        let reopened = try openMemoStore(directory.url)
        #expect(try reopened.fetchHistory(HistoryDescriptor()).map(\.token) == tokens)
        #expect(try reopened.modelCount() == index)
    }
}
