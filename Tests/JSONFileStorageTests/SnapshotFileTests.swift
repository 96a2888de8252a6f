import DataStoreCore
import DataStoreKit
import Foundation
import Testing

@testable import JSONFileStorage

/// A checkpoint's snapshot file, its rows records encoded and framed on every core: the bytes must be those of
/// the `snapshot` record then one `rows` record per thousand rows, in identifier order, written one after the
/// other.
@Suite struct SnapshotFileTests {
    /// A state holding `count` rows of two entities, with strings that need escaping.
    static func state(rows count: Int) -> ReplayedState {
        var state = ReplayedState(storeIdentifier: "notes", schema: nil, epoch: UUID())
        for index in 0..<count {
            let id = PersistentIdentifier(
                storeIdentifier: "notes", entityName: index % 3 == 0 ? "Tag" : "Note", primaryKey: "k\(index)"
            )
            state.table.apply(
                PlannedChange(
                    kind: .insert, identifier: id,
                    values: ["title": .string("note \"\(index)\"\n"), "rank": .integer(Int64(index))]))
        }
        state.latestSequence = 7
        return state
    }

    /// The file written one record after the other, spelled out here rather than through the code under test.
    static func expected(_ state: ReplayedState) throws -> Data {
        var record = state.snapshotRecord(segments: [])
        let rows = record.rows
        record.rows = []
        var file = try JournalIO.encode(.snapshot(record))
        for start in stride(from: 0, to: rows.count, by: 1_000) {
            file.append(
                RecordFraming.frame(
                    TransactionCodec.encode(rows: rows[start..<min(start + 1_000, rows.count)])))
        }
        return file
    }

    @Test(arguments: [0, 1, 999, 1_000, 3_500, 7_001])
    func theFileIsTheRecordsOneAfterTheOther(rows: Int) throws {
        let state = Self.state(rows: rows)
        let expected = try Self.expected(state)
        // One record a line: the snapshot record, then a rows record per thousand rows.
        #expect(expected.count { $0 == UInt8(ascii: "\n") } == 1 + (rows + 999) / 1_000)
        #expect(try JournalIO.snapshotFile(state, segments: []) == expected)
    }
}
