import DataStoreCore
import DataStoreKit
import Foundation

/// The store's files and how to read and write them. Callers hold the store's file lock.
struct SegmentFiles: Sendable {
    static let formatVersion = 1

    let root: String

    init(_ url: URL) {
        root = url.standardizedFileURL.path
    }

    var index: String { root + "/index.json" }
    var lock: String { root + "/lock" }
    var segments: String { root + "/segments" }
    func segment(_ file: String) -> String { segments + "/" + file }

    /// Segment files are named by their first sequence, zero-padded so names sort in commit order.
    static func fileName(firstSequence: Int64) -> String {
        let digits = String(firstSequence)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".jsonl"
    }

    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static func frame<T: Encodable>(_ value: T) throws(DataStoreError) -> Data {
        do {
            return RecordFraming.frame(try encoder().encode(value))
        } catch {
            throw .invalidSave(store: "?", reason: "a value could not be encoded as JSON: \(error)")
        }
    }

    static func decode<T: Decodable>(_: T.Type, _ record: RecordFraming.Record, path: String)
        throws(DataStoreError) -> T
    {
        do {
            return try JSONDecoder().decode(T.self, from: record.payload)
        } catch {
            throw .corruptStoreFile(
                path: path, offset: record.offset, reason: "the record does not decode: \(error)")
        }
    }

    func writeIndex(_ index: SegmentIndex) throws(DataStoreError) {
        try AtomicFileWriter.replace(self.index, with: try Self.frame(index))
    }

    func readIndex(storeName: String) throws -> SegmentIndex {
        let file = try StoreFile(path: index, mode: .readOnly)
        let parsed = try RecordFraming.parse(try file.readToEnd(from: 0), startingAt: 0, path: index)
        guard parsed.records.count == 1, !parsed.hasTornTail, let record = parsed.records.first else {
            throw DataStoreError.corruptStoreFile(
                path: index, offset: parsed.endOfValidData, reason: "the index is not one whole record")
        }
        let decoded = try Self.decode(SegmentIndex.self, record, path: index)
        guard decoded.format <= Self.formatVersion else {
            throw DataStoreError.unsupportedFormatVersion(
                path: index, found: decoded.format, supported: Self.formatVersion)
        }
        guard decoded.store == storeName else {
            throw DataStoreError.invalidConfiguration(
                reason: "\(index) belongs to store '\(decoded.store)', not '\(storeName)'")
        }
        return decoded
    }

    /// Checks, with one `stat`, that a closed segment exists and has the size `index.json` recorded. A
    /// segment that straddles the oldest valid sequence may have been rewritten without its deleted commits
    /// just before a crash, so only its existence is checked; its contents are checked when it is read.
    func checkClosed(_ segment: SegmentIndex.Segment, oldestValid: Int64) throws {
        let path = self.segment(segment.file)
        guard let status = StoreFile.status(atPath: path) else {
            throw DataStoreError.corruptStoreFile(
                path: path, offset: 0,
                reason: "the segment listed in index.json is missing (removed by hand?)")
        }
        if segment.firstSequence > oldestValid && status.size != segment.byteSize {
            throw DataStoreError.corruptStoreFile(
                path: path, offset: min(status.size, segment.byteSize),
                reason:
                    "the closed segment holds \(status.size) bytes but index.json recorded \(segment.byteSize) "
                    + "(sequences \(segment.firstSequence)...\(segment.lastSequence)): it was cut short or changed"
            )
        }
    }

    /// Reads a closed segment's commits. Any damage, even at the end, is corruption: closed segments are
    /// never written again. So is a segment whose commits are not exactly the sequences `index.json` lists
    /// for it (those at or below `oldestValid` may be gone: they are deleted history).
    func readClosed(
        _ segment: SegmentIndex.Segment, oldestValid: Int64, window: CommitCodec.SampleWindow? = nil
    ) throws -> [SegmentRecord.Commit] {
        let path = self.segment(segment.file)
        guard StoreFile.exists(path) else {
            throw DataStoreError.corruptStoreFile(
                path: path, offset: 0,
                reason: "the segment listed in index.json is missing (removed by hand?)")
        }
        let parsed = try RecordFraming.parse(
            try StoreFile(path: path, mode: .readOnly).readToEnd(from: 0), startingAt: 0, path: path)
        guard !parsed.hasTornTail else {
            throw DataStoreError.corruptStoreFile(
                path: path, offset: parsed.endOfValidData,
                reason: "a closed segment ends in a partial record (truncated?)")
        }
        let commits = try commits(in: parsed.records.dropFirst(), path: path, window: window)
        let retained = commits.filter { $0.sequence > oldestValid }.map(\.sequence)
        let first = max(segment.firstSequence, oldestValid + 1)
        let expected = first <= segment.lastSequence ? Array(first...segment.lastSequence) : []
        guard retained == expected else {
            throw DataStoreError.corruptStoreFile(
                path: path, offset: parsed.endOfValidData,
                reason:
                    "the closed segment holds sequences \(retained.first.map(String.init) ?? "none")..."
                    + "\(retained.last.map(String.init) ?? "none") (\(retained.count) commits), but index.json lists "
                    + "\(first)...\(segment.lastSequence)")
        }
        return commits
    }

    /// Reads the active segment from `offset`: its commits, and the end of valid data. A torn tail is cut
    /// back when `repair` is set.
    func readActive(_ file: String, from offset: Int64, repair: Bool) throws -> (
        commits: [SegmentRecord.Commit], end: Int64
    ) {
        let path = segment(file)
        guard StoreFile.exists(path) else {
            throw DataStoreError.corruptStoreFile(
                path: path, offset: 0, reason: "the active segment named in index.json is missing")
        }
        let handle = try StoreFile(path: path, mode: repair ? .readWrite(create: false) : .readOnly)
        let parsed = try RecordFraming.parse(
            try handle.readToEnd(from: offset), startingAt: offset, path: path)
        let records = offset == 0 ? parsed.records.dropFirst() : parsed.records[...]
        if parsed.hasTornTail && repair {
            try handle.truncate(to: parsed.endOfValidData)
            try handle.synchronize()
        }
        return (try commits(in: records, path: path), parsed.endOfValidData)
    }

    private func commits(
        in records: ArraySlice<RecordFraming.Record>, path: String, window: CommitCodec.SampleWindow? = nil
    ) throws -> [SegmentRecord.Commit] {
        try records.map { record in
            let commit: SegmentRecord.Commit?
            do {
                commit = try CommitCodec.decode(record.payload, window: window)
            } catch {
                throw DataStoreError.corruptStoreFile(
                    path: path, offset: record.offset, reason: "the record does not decode: \(error)")
            }
            guard let commit else {
                throw DataStoreError.corruptStoreFile(
                    path: path, offset: record.offset, reason: "a second header inside a segment")
            }
            return commit
        }
    }

    /// Creates a segment holding only its header.
    func createSegment(_ file: String, header: SegmentRecord.Header) throws -> Int64 {
        let line = try Self.frame(SegmentRecord.header(header))
        try AtomicFileWriter.replace(segment(file), with: line)
        return Int64(line.count)
    }

    /// Appends one commit at `offset` and returns its length; on failure the segment is cut back to `offset`
    /// (see `StoreFile.appendRecord(_:at:synchronize:)` for when that fails too).
    func append(
        _ commit: SegmentRecord.Commit, samples batch: SampleBatch, to file: String, at offset: Int64,
        synchronize: Bool
    ) throws -> Int64 {
        let line = CommitCodec.line(commit, samples: batch)
        let handle = try StoreFile(path: segment(file), mode: .readWrite(create: false))
        try handle.appendRecord(line, at: offset, synchronize: synchronize)
        return Int64(line.count)
    }
}
