import DataStoreCore
import DataStoreKit
import Foundation
import StoreTestSupport
import Testing

@testable import JSONFileStorage

/// A checkpoint right after a bulk save copies the rows' values from the save's journal record instead of
/// encoding them again (`RowEncodings`): the snapshot must be the bytes it would be without the copies, rows
/// changed since the save written as usual.
@Suite struct RowEncodingsTests {
    /// `count` inserts of two entities, with strings that need escaping and values of several kinds.
    static func inserts(_ count: Int, from first: Int = 0) -> [PlannedChange] {
        (first..<first + count).map { index in
            var values: [String: SnapshotValue] = [
                "title": .string("note \"\(index)\"\n\\ é"), "rank": .integer(Int64(index)),
            ]
            if index % 5 == 0 { values["score"] = .double(Double(index) / 3) }
            if index % 7 == 0 { values = [:] }
            return PlannedChange(
                kind: .insert,
                identifier: PersistentIdentifier(
                    storeIdentifier: "notes", entityName: index % 3 == 0 ? "Tag" : "Note",
                    primaryKey: "k\(index)"),
                values: values)
        }
    }

    static func transaction(_ sequence: Int64, _ changes: [PlannedChange]) -> JournalRecord.TransactionRecord
    {
        JournalRecord.TransactionRecord(
            sequence: sequence, timestamp: Date(timeIntervalSinceReferenceDate: 1_000), author: nil,
            bundle: "b",
            process: "p", firstChange: 1, changes: changes)
    }

    /// The journal line of `body` as a save writes it, and the encodings a save keeps of it.
    static func written(_ body: JournalRecord.TransactionRecord) throws -> (Data, RowEncodings) {
        let (line, encodings) = RowEncodings.line(of: body)
        // The line is the one the journal's own encoder writes.
        #expect(line == (try JournalIO.encode(.transaction(body))))
        return (line, try #require(encodings))
    }

    @Test(arguments: [1_000, 4_500, 9_001])
    func theSnapshotIsTheSameBytesWithTheCopies(count: Int) throws {
        var state = ReplayedState(storeIdentifier: "notes", schema: nil, epoch: UUID())
        // Rows from before the save: not in its record (those without values share the one empty
        // dictionary's storage with the record's, and are copied as `{}`, which they encode to).
        let earlier = Self.inserts(50, from: 100_000)
        state.apply(Self.transaction(1, earlier), at: 0)
        let body = Self.transaction(2, Self.inserts(count))
        let (_, encodings) = try Self.written(body)
        state.apply(body, at: 1)
        // Rows changed after the save, by an update (a merged dictionary) or a delete and insert again with
        // other values: written as usual.
        var later: [PlannedChange] = []
        for index in stride(from: 1, to: count, by: 10) {
            later.append(
                PlannedChange(
                    kind: .update, identifier: body.changes[index].identifier, values: ["rank": .integer(-1)],
                    updatedAttributes: ["rank"]))
        }
        state.apply(Self.transaction(3, later), at: 2)
        let (file, copied) = try JournalIO.snapshotFile(state, segments: [], reusing: encodings)
        #expect(file == (try JournalIO.snapshotFile(state, segments: [])))
        #expect(copied == count - later.count + earlier.count { $0.values.isEmpty })
    }

    /// A store's automatic checkpoint after a bulk insert copies its rows, and the store reads back the same
    /// models after reopening; an update of as many rows is encoded as usual. No save keeps its record once it
    /// returned.
    @Test func aBulkSaveCheckpointsWithItsOwnEncodings() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = JSONFileStoreConfiguration(
            name: "notes", schema: Schema([Memo.self]), directory: directory.url, durability: .relaxed)
        configuration.checkpointJournalBytes = 64 << 10
        configuration.checkpointJournalRatio = nil
        let store = try JSONFileDataStore(configuration)
        let memos = (0..<3_000).map { index in
            DataStoreSnapshot(
                persistentIdentifier: PersistentIdentifier(
                    storeIdentifier: "notes", entityName: "Memo", primaryKey: "m\(index)"),
                values: [
                    "title": .string("memo \"\(index)\""),
                    "body": .string(String(repeating: "é", count: index % 9)),
                ])
        }
        /// What a new instance reads: from the snapshot alone, the journal being empty after a checkpoint.
        func reopened() throws -> [PersistentIdentifier: [String: SnapshotValue]] {
            let rows = try JSONFileDataStore(configuration).fetch(
                DataStoreFetchRequest(descriptor: FetchDescriptor<Memo>())
            ).snapshots
            return Dictionary(rows.map { ($0.persistentIdentifier, $0.values) }) { first, _ in first }
        }
        _ = try store.save(DataStoreSaveChangesRequest(inserted: memos))
        #expect(store.statistics.checkpoints == 1)
        #expect(store.statistics.checkpointRowsCopied == 3_000)
        #expect(
            try reopened()
                == Dictionary(uniqueKeysWithValues: memos.map { ($0.persistentIdentifier, $0.values) }))
        let edited = memos.map {
            DataStoreSnapshot(
                persistentIdentifier: $0.persistentIdentifier, values: ["body": .string("again")])
        }
        _ = try store.save(DataStoreSaveChangesRequest(updated: edited))
        // The save's record is let go when the save returns, checkpoint or not.
        #expect(!store.holdsRecentEncodings)
        #expect(store.statistics.checkpoints == 2)
        #expect(store.statistics.checkpointRowsCopied == 3_000)
        var expected: [PersistentIdentifier: [String: SnapshotValue]] = [:]
        for memo in memos {
            expected[memo.persistentIdentifier] = memo.values.merging(["body": .string("again")]) { $1 }
        }
        #expect(try reopened() == expected)
        // A bulk save that triggers no checkpoint lets its record go too.
        var unlimited = configuration
        unlimited.checkpointJournalBytes = nil
        let quiet = try JSONFileDataStore(unlimited)
        _ = try quiet.save(
            DataStoreSaveChangesRequest(
                updated: memos.map {
                    DataStoreSnapshot(
                        persistentIdentifier: $0.persistentIdentifier, values: ["body": .string("3")])
                }))
        #expect(quiet.statistics.checkpoints == 0 && !quiet.holdsRecentEncodings)
    }
}
