import DataStoreCore
public import Foundation
import StoreFileSupport

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
        try withCurrentState(.shared) { $0.index.oldestValid }
    }
}
