public import DataStoreCore
import Foundation

/// What a repair removed from a damaged store file, and where it kept the removed bytes.
public struct StoreRepairReport: Sendable, Hashable, CustomStringConvertible {
    /// The repaired file.
    public var path: String
    /// The offset of the first damaged (or incomplete) record: the file now ends here.
    public var offset: Int64
    /// How many bytes were cut off the end of the file, not counting free space (the zeros after them in a file
    /// that may have some, such as a JSON journal).
    public var removedByteCount: Int64
    /// The file that holds the removed bytes, unchanged, as evidence.
    public var sideFile: String

    /// Creates a report.
    public init(path: String, offset: Int64, removedByteCount: Int64, sideFile: String) {
        self.path = path
        self.offset = offset
        self.removedByteCount = removedByteCount
        self.sideFile = sideFile
    }

    /// `journal.jsonl: cut back at byte 1234, 567 bytes kept in journal.jsonl.damaged-…`.
    public var description: String {
        "\(path): cut back at byte offset \(offset); the \(removedByteCount) removed bytes are kept in \(sideFile)"
    }
}

/// The way out of damage that keeps the evidence: cut a record file back to its last good record, after
/// saving everything from the first damaged record on to a side file.
public enum StoreRepair {
    /// Cuts the file at `path` back to the end of its last good record, if anything after it is damaged or
    /// incomplete. The removed bytes are first written, durably, to `PATH.damaged-TIMESTAMP` beside it. Call
    /// holding the store's exclusive lock.
    ///
    /// - Parameters:
    ///   - path: The record file.
    ///   - ending: How the file may end: with ``RecordFraming/Ending/preallocated``, zeros after the last
    ///     record are free space, and the zeros at the end of the removed bytes are left out of the side file.
    ///   - writeStart: Reads where the write that appended a record began, for files whose writers record it
    ///     (see ``RecordFraming/WriteStart``).
    /// - Returns: What was removed, or `nil` when every record is whole (then nothing is written).
    public static func cutBack(
        _ path: String, ending: RecordFraming.Ending = .appended, writeStart: RecordFraming.WriteStart? = nil
    )
        throws(DataStoreError)
        -> StoreRepairReport?
    {
        let file = try StoreFile(path: path, mode: .readWrite(create: false))
        let bytes = try file.readToEnd(from: 0)
        let scanned = RecordFraming.scan(bytes, startingAt: 0, ending: ending, writeStart: writeStart)
        guard scanned.damage != nil || scanned.result.hasTornTail else { return nil }
        let offset = scanned.result.endOfValidData
        // Free space is not evidence; in a file that has none, every byte after `offset` is.
        let written =
            ending == .preallocated ? max(Int(offset), (bytes.lastIndex { $0 != 0 } ?? 0) + 1) : bytes.count
        let stamp = Int(Date().timeIntervalSince1970)
        var sideFile = "\(path).damaged-\(stamp)"
        var attempt = 1
        while StoreFile.exists(sideFile) {
            attempt += 1
            sideFile = "\(path).damaged-\(stamp)-\(attempt)"
        }
        try AtomicFileWriter.replace(sideFile, with: bytes[Int(offset)..<written])
        try file.truncate(to: offset)
        try file.synchronize()
        return StoreRepairReport(
            path: path, offset: offset, removedByteCount: Int64(written) - offset, sideFile: sideFile)
    }
}
