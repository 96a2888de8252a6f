import DataStoreCore
public import Foundation
import StoreFileSupport

extension JSONFileDataStore {
    /// What a directory's journal header says, read without opening the store (and without writing).
    public struct FileDescription: Sendable {
        /// The store's name, recorded when it was created.
        public var name: String
        /// The journal's format version.
        public var format: Int
        /// The current epoch.
        public var epoch: UUID
    }

    /// Reads the journal header in `directory`, so a tool can open a store whose name it does not know.
    ///
    /// - Throws: ``DataStoreError/storageUnavailable(path:reason:)`` if there is no journal, or
    ///   ``DataStoreError/corruptStoreFile(path:offset:reason:)`` if its first record is not a header.
    public static func describe(directory: URL) throws -> FileDescription {
        let files = StoreDirectory(directory)
        guard StoreFile.exists(files.journal) else {
            throw DataStoreError.storageUnavailable(
                path: files.path, reason: "there is no journal.jsonl here")
        }
        let file = try StoreFile(path: files.journal, mode: .readOnly)
        let parsed = try RecordFraming.parse(try file.readToEnd(from: 0), startingAt: 0, path: files.journal)
        guard let first = parsed.records.first,
            case .header(let header) = try JournalIO.decode(first, path: files.journal)
        else {
            throw DataStoreError.corruptStoreFile(
                path: files.journal, offset: 0, reason: "the journal has no header record")
        }
        return FileDescription(name: header.store, format: header.format, epoch: header.epoch)
    }

    /// Compacts, like ``compact()``, but throws ``DataStoreError/storeLocked(path:)`` at once instead of waiting
    /// when another process holds the write lock and `wait` is `false`.
    public func compact(waitingForLock wait: Bool) throws {
        guard !configuration.isReadOnly else { throw DataStoreError.readOnlyStore(store: identifier) }
        if wait { return try compact() }
        try FileLock(path: files.lock, readOnly: false).withLockIfAvailable(.exclusive) {}
        try compact()
    }
}

extension JSONFileDataStore {
    /// The oldest valid sequence: tokens below it are expired.
    public func oldestValidSequence() throws -> Int64 {
        try withCurrentState(.shared) { $0.replayed.oldestValidSequence }
    }
}
