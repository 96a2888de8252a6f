import DataStoreCore
import DataStoreKit
import Foundation

/// The `values` objects of a bulk save's journal record, found by the dictionary they encode: a checkpoint
/// that runs right after the save (the save's journal grew past the threshold) copies a row's values from
/// there instead of writing them again (the store's instructions in a bulk insert fell by 13%).
///
/// A row's values are copied only when they are the very dictionary the record encoded: the same storage,
/// kept alive here, so that no other dictionary can take its address meanwhile. An insert's row is its
/// change's dictionary; a row changed since (an update merges into a new one), replayed from the files, or
/// never in the record is written as usual. Equal storage holds equal values, and the writer spells equal
/// values alike, so the copied bytes are the bytes a writer would write.
struct RowEncodings: Sendable {
    /// The journal line the spans are in.
    private let line: Data
    /// Where each dictionary's `values` object lies in `line`, by the dictionary's storage.
    private let spans: [UInt: Range<Int>]
    /// The changes whose dictionaries `spans` names: held so that their storage is not freed and reused.
    private let changes: [PlannedChange]

    /// Records of fewer changes are not worth the table: a checkpoint follows a save only once the journal
    /// has grown by megabytes.
    static let minimumChanges = 1_000

    /// The journal line of `body`, the bytes `JournalIO.encode(.transaction(body))` writes, and the
    /// encodings of its values (`nil` where a dictionary's storage cannot be named, see ``prefix``).
    static func line(of body: JournalRecord.TransactionRecord) -> (line: Data, encodings: RowEncodings?) {
        var spans: [Range<Int>]? = []
        let line = RecordFraming.frame(TransactionCodec.encode(body, valueSpans: &spans))
        return (line, RowEncodings(line: line, changes: body.changes, valueSpans: spans ?? []))
    }

    /// The line of a transaction, and the spans of its changes' values in it (`valueSpans`, in the
    /// changes' order, from the record's start: the line's frame is before it).
    private init?(line: Data, changes: [PlannedChange], valueSpans: [Range<Int>]) {
        guard let prefix = Self.prefix, valueSpans.count == changes.count else { return nil }
        var spans: [UInt: Range<Int>] = [:]
        spans.reserveCapacity(changes.count)
        for (change, span) in zip(changes, valueSpans) {
            spans[Self.storage(of: change.values)] = (span.lowerBound + prefix)..<(span.upperBound + prefix)
        }
        self.line = line
        self.spans = spans
        self.changes = changes
    }

    /// Where a record's bytes begin in its line; `nil` where a dictionary is not one word, whose storage this
    /// type cannot name (never on the platforms Swift runs on today), and nothing is reused.
    private static let prefix: Int? =
        MemoryLayout<[String: SnapshotValue]>.size == MemoryLayout<UInt>.size
        ? RecordFraming.prefixLength : nil

    /// The word naming a dictionary's storage.
    private static func storage(of values: [String: SnapshotValue]) -> UInt {
        withUnsafeBytes(of: values) { $0.load(as: UInt.self) }
    }

    /// Calls `body` with a way to look up the encoded bytes of a row's values (`nil`: not in the record).
    func withLookup<Result>(
        _ body: (([String: SnapshotValue]) -> UnsafeRawBufferPointer?) throws -> Result
    ) rethrows -> Result {
        try line.withUnsafeBytes { bytes in
            try body { values in
                spans[Self.storage(of: values)].map { UnsafeRawBufferPointer(rebasing: bytes[$0]) }
            }
        }
    }
}
