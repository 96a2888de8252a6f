import DataStoreCore
public import DataStoreKit
public import Foundation

extension TimeSeriesDataStore {
    /// What a directory's `index.json` says, read without opening the store (and without writing).
    public struct FileDescription: Sendable {
        /// The store's name, recorded when it was created.
        public var name: String
        /// The index's format version.
        public var format: Int
        /// The current epoch.
        public var epoch: UUID
        /// The segment files, oldest first (the one being written last).
        public var segments: [String]
    }

    /// Reads `index.json` in `directory`, so a tool can open a store whose name it does not know.
    public static func describe(directory: URL) throws -> FileDescription {
        let files = SegmentFiles(directory)
        guard StoreFile.exists(files.index) else {
            throw DataStoreError.storageUnavailable(path: files.root, reason: "there is no index.json here")
        }
        let file = try StoreFile(path: files.index, mode: .readOnly)
        let parsed = try RecordFraming.parse(try file.readToEnd(from: 0), startingAt: 0, path: files.index)
        guard parsed.records.count == 1, let record = parsed.records.first else {
            throw DataStoreError.corruptStoreFile(
                path: files.index, offset: 0, reason: "the index is not one whole record")
        }
        let index = try SegmentFiles.decode(SegmentIndex.self, record, path: files.index)
        return FileDescription(
            name: index.store, format: index.format, epoch: index.epoch,
            segments: index.segments.map(\.file) + (index.active.map { [$0.file] } ?? []))
    }

    /// The oldest valid sequence: tokens below it are expired.
    public func oldestValidSequence() throws -> Int64 {
        try read { $0.index.oldestValid }
    }
}
extension TimeSeriesDataStore {
    /// The way out of damage that keeps the evidence: cuts the segment being written back to its last good
    /// record, after copying everything from the first damaged (or incomplete) record on into
    /// `SEGMENT.damaged-TIME`. Waits up to `busyTimeout` for the store's lock. `datastore repair` calls this.
    ///
    /// Samples in the removed bytes are lost from the store (they stay in the side file). A damaged *closed*
    /// segment or index cannot be cut back without a hole in history: opening still throws
    /// ``DataStoreError/corruptStoreFile(path:offset:reason:)`` for it, and it needs a backup.
    ///
    /// - Returns: What was removed, or `nil` when the active segment needs no repair (nothing is written).
    public static func repair(directory: URL, busyTimeout: Duration = .seconds(10)) throws
        -> StoreRepairReport?
    {
        let files = SegmentFiles(directory)
        return try FileLock.withLock(.exclusive, path: files.lock, readOnly: false, timeout: busyTimeout) {
            let index = try files.readIndex(storeName: try describe(directory: directory).name)
            guard let active = index.active else { return nil }
            return try StoreRepair.cutBack(files.segment(active.file))
        }
    }
}

extension TimeSeriesDataStore {
    /// Reads the index and every segment, checking each record's framing and checksum, that each closed
    /// segment holds exactly the sequences the index lists, and that history has no hole after the oldest
    /// valid sequence. Never writes. `datastore verify` calls this.
    ///
    /// - Throws: ``DataStoreError/corruptStoreFile(path:offset:reason:)`` for the first problem, with its file
    ///   and offset; an incomplete last record of the active segment counts as one.
    public func verify() throws -> StoreVerification {
        try readFromFiles { state in
            var records = 1  // the index, read whole by the refresh
            var sequences: [Int64] = []
            for segment in state.index.segments {
                let commits = try files.readClosed(segment, oldestValid: state.index.oldestValid)
                records += commits.count + 1
                sequences += commits.map(\.sequence).filter { $0 > state.index.oldestValid }
            }
            if let active = state.active {
                records += try StoreVerification.countWholeRecords(inFileAt: files.segment(active.file))
                sequences += active.commits.map(\.sequence).filter { $0 > state.index.oldestValid }
            }
            // Retention and deleteHistory remove a prefix only: no hole at all after the oldest valid sequence.
            try StoreVerification.checkContinuity(
                sequences, oldestValid: state.index.oldestValid, path: files.root)
            if let first = sequences.first, first > state.index.oldestValid + 1 {
                throw DataStoreError.corruptStoreFile(
                    path: files.root, offset: 0,
                    reason:
                        "history starts at sequence \(first), but only sequences up to \(state.index.oldestValid) were deleted"
                )
            }
            return StoreVerification(
                backend: "timeseries", storeIdentifier: identifier, recordCount: records, sequences: sequences
            )
        }
    }

    /// What the store holds, after catching up: `datastore info` prints it. Counting samples reads every
    /// segment.
    public func inspect() throws -> StoreInspection {
        let (history, epoch, oldestValid, latest, segmentCount) = try read { state in
            (
                try commits(of: segments(in: state) { _, _, _, _ in true }, in: &state), state.index.epoch,
                state.index.oldestValid, state.latestSequence,
                state.index.segments.count + (state.active == nil ? 0 : 1)
            )
        }
        var counts: [String: Int] = [:]
        for commit in history { for sample in commit.samples { counts[sample.entity, default: 0] += 1 } }
        func json(_ sequence: Int64) throws -> String {
            try HistoryTokenCoding.jsonString(
                TimeSeriesHistoryToken(storeIdentifier: identifier, epoch: epoch, sequence: sequence))
        }
        return StoreInspection(
            backend: "timeseries", formatVersion: SegmentFiles.formatVersion, storeIdentifier: identifier,
            epoch: epoch, countedThings: "samples", countsByEntity: counts,
            details: [
                .init("segments", "\(segmentCount)"), .init("oldest valid sequence", "\(oldestValid)"),
            ],
            transactionCount: history.count, changeCount: history.reduce(0) { $0 + $1.samples.count },
            oldestUsableToken: try json(oldestValid), newestToken: try json(latest))
    }
}
