import DataStoreCore
import DataStoreKit
import Foundation

/// Reads the framed transaction lines of a segment or the journal, keeping each line's bytes: a checkpoint
/// copies them as they are. A line is handed out as a slice of the file's bytes (its indices start where it
/// lies in the file, not at zero).
struct SegmentReader {
    let files: StoreDirectory

    /// The transactions of a segment with their lines.
    func forEachLine(
        of segment: HistoryIndex.File, _ visit: (TransactionCodec.Stamp, Data) throws -> Void
    ) throws {
        let path = files.file(segment.name)
        let bytes = try StoreFile(path: path, mode: .readOnly).read(from: 0, count: Int(segment.end))
        try forEachTransaction(in: bytes, path: path, visit)
    }

    /// The journal's transactions up to `end`, schema records' transactions as records of their own.
    func forEachJournalTransaction(
        through end: Int64, _ visit: (TransactionCodec.Stamp, Data) throws -> Void
    ) throws {
        let bytes = try StoreFile(path: files.journal, mode: .readOnly).read(from: 0, count: Int(end))
        try forEachTransaction(in: bytes, path: files.journal, visit)
    }

    /// Transaction records are read for their stamp only: their changes are copied, not decoded.
    private func forEachTransaction(
        in bytes: Data, path: String, _ visit: (TransactionCodec.Stamp, Data) throws -> Void
    ) throws {
        let parsed = try RecordFraming.parse(bytes, startingAt: 0, path: path)
        for (number, record) in parsed.records.enumerated() {
            let next =
                number + 1 < parsed.records.count ? parsed.records[number + 1].offset : parsed.endOfValidData
            if let stamp = try JournalIO.stamp(record, path: path) {
                // A slice sharing the file's bytes, not a copy: the checkpoint copies each line once, into the
                // new segment. (A copy of a journal after a large save is megabytes of fresh pages, each
                // faulted in.)
                try visit(stamp, bytes[bytes.startIndex + Int(record.offset)..<bytes.startIndex + Int(next)])
            } else if case .schema(let body) = try JournalIO.decode(record, path: path),
                let body = body.transaction
            {
                try visit(
                    TransactionCodec.Stamp(sequence: body.sequence, timestamp: body.timestamp),
                    try JournalIO.encode(.transaction(body)))
            }
        }
    }
}
