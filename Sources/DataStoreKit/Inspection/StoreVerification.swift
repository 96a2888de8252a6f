public import DataStoreCore

/// What a file store's `verify()` checked and found sound.
public struct StoreVerification: Sendable, Hashable, CustomStringConvertible {
    /// The backend's short name, such as `jsonfile`.
    public var backend: String
    /// The store's identifier.
    public var storeIdentifier: String
    /// How many framed records the files hold, all with sound checksums.
    public var recordCount: Int
    /// The retained transactions' sequences, oldest first.
    public var sequences: [Int64]

    /// Creates a verification result.
    public init(backend: String, storeIdentifier: String, recordCount: Int, sequences: [Int64]) {
        self.backend = backend
        self.storeIdentifier = storeIdentifier
        self.recordCount = recordCount
        self.sequences = sequences
    }

    /// `jsonfile store 'trips': 12 records, 11 transactions, sequences 1...11`.
    public var description: String {
        "\(backend) store '\(storeIdentifier)': \(recordCount) records, \(sequences.count) transactions"
            + (sequences.first.map { ", sequences \($0)...\(sequences.last ?? $0)" } ?? "")
    }

    /// Reads the file at `path` and returns how many records it holds, all whole and with sound checksums.
    ///
    /// - Parameters:
    ///   - path: The record file.
    ///   - ending: How the file may end (``RecordFraming/Ending/preallocated``: zeros after the last record are
    ///     free space, not a torn write).
    ///   - writeStart: Reads where the write that appended a record began (see ``RecordFraming/WriteStart``).
    /// - Throws: `DataStoreError/corruptStoreFile(path:offset:reason:)` for a damaged record, and for an
    ///   incomplete last record too: a torn write that the next writer would cut back is still reported.
    public static func countWholeRecords(
        inFileAt path: String, ending: RecordFraming.Ending = .appended,
        writeStart: RecordFraming.WriteStart? = nil
    ) throws(DataStoreError) -> Int {
        let parsed = try RecordFraming.parse(
            try StoreFile(path: path, mode: .readOnly).readToEnd(from: 0), startingAt: 0, path: path,
            ending: ending, writeStart: writeStart)
        if parsed.hasTornTail {
            throw .corruptStoreFile(
                path: path, offset: parsed.endOfValidData,
                reason: "the last record is incomplete (a torn write; the next writer cuts it back)")
        }
        return parsed.records.count
    }

    /// Checks that retained history has no hole past the oldest valid sequence: holes are allowed only where
    /// deleted history expired every token (at or below `oldestValid`).
    ///
    /// - Throws: `DataStoreError/corruptStoreFile(path:offset:reason:)` naming `path` for a hole after it.
    public static func checkContinuity(_ sequences: [Int64], oldestValid: Int64, path: String)
        throws(DataStoreError)
    {
        for (previous, next) in zip(sequences, sequences.dropFirst()) where next != previous + 1 {
            guard next <= previous || next - 1 > oldestValid else { continue }
            throw .corruptStoreFile(
                path: path, offset: 0,
                reason:
                    "history sequence \(previous) is followed by \(next), but only history at or before "
                    + "sequence \(oldestValid) was deleted")
        }
    }
}
