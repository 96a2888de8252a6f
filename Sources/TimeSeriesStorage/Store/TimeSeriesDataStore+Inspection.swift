import DataStoreCore
public import Foundation
public import StoreFileSupport

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
