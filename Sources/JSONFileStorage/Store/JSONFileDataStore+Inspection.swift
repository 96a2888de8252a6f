import DataStoreCore
public import DataStoreKit
public import Foundation

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
        // Only the first line: the header names the store even when a later record is damaged.
        let bytes = try StoreFile(path: files.journal, mode: .readOnly).readToEnd(from: 0)
        let header = bytes.firstIndex(of: UInt8(ascii: "\n")).map { bytes[...$0] } ?? bytes[...]
        let parsed = try RecordFraming.parse(Data(header), startingAt: 0, path: files.journal)
        guard let first = parsed.records.first,
            case .header(let header) = try JournalIO.decode(first, path: files.journal)
        else {
            throw DataStoreError.corruptStoreFile(
                path: files.journal, offset: 0, reason: "the journal has no header record")
        }
        return FileDescription(name: header.store, format: header.format, epoch: header.epoch)
    }

    /// The way out of damage that keeps the evidence: cuts the journal back to its last good record, after
    /// copying everything from the first damaged (or incomplete) record on into `journal.jsonl.damaged-TIME`.
    /// Waits up to `busyTimeout` for the store's lock. `datastore repair` calls this.
    ///
    /// Transactions in the removed bytes are lost from the store (they stay in the side file); run it only
    /// when opening the store throws ``DataStoreError/corruptStoreFile(path:offset:reason:)`` for the journal.
    /// Damage to `snapshot.json` cannot be cut back and still throws.
    ///
    /// - Returns: What was removed, or `nil` when the journal needs no repair (nothing is written then).
    public static func repair(directory: URL, busyTimeout: Duration = .seconds(10)) throws
        -> StoreRepairReport?
    {
        let files = StoreDirectory(directory)
        guard StoreFile.exists(files.journal) else {
            throw DataStoreError.storageUnavailable(
                path: files.path, reason: "there is no journal.jsonl here")
        }
        return try FileLock.withLock(.exclusive, path: files.lock, readOnly: false, timeout: busyTimeout) {
            try StoreRepair.cutBack(files.journal, ending: .preallocated, writeStart: JournalIO.writeStart)
        }
    }
}

extension JSONFileDataStore {
    /// The oldest valid sequence: tokens below it are expired.
    public func oldestValidSequence() throws -> Int64 {
        try read { $0.replayed.oldestValidSequence }
    }
}

extension JSONFileDataStore {
    /// Reads every record of the journal, the snapshot and the history segments and checks its framing and
    /// checksum, then that every retained transaction is in the files, in order. Never writes. `datastore
    /// verify` calls this.
    ///
    /// - Throws: ``DataStoreError/corruptStoreFile(path:offset:reason:)`` for the first problem, with its file
    ///   and offset; an incomplete last record (a torn write the next writer cuts back) counts as one.
    public func verify() throws -> StoreVerification {
        try readFromFiles { state in
            var records = 0
            let segments = state.replayed.history.segments.map { files.file($0.name) }
            for path in [files.journal, files.snapshot] + segments where StoreFile.exists(path) {
                records += try StoreVerification.countWholeRecords(
                    inFileAt: path, ending: path == files.journal ? .preallocated : .appended,
                    writeStart: path == files.journal ? JournalIO.writeStart : nil)
            }
            let sequences = try allHistory(state).map(\.token.sequence)
            let index = state.replayed.history
            guard sequences == index.retained(through: index.latest) else {
                throw DataStoreError.corruptStoreFile(
                    path: files.path, offset: 0,
                    reason:
                        "the history files hold \(sequences.count) of the \(index.count) retained transactions"
                )
            }
            try StoreVerification.checkContinuity(
                sequences, oldestValid: state.replayed.oldestValidSequence, path: files.journal)
            return StoreVerification(
                backend: "jsonfile", storeIdentifier: identifier, recordCount: records, sequences: sequences)
        }
    }

    /// Every retained transaction, read from the files.
    private func allHistory(_ state: State) throws -> [JSONFileHistoryTransaction] {
        var statistics = HistoryQueryStatistics()
        return try query(for: state.replayed).run(
            HistoryDescriptor(), source: JSONFileHistorySource(state, directory: files),
            statistics: &statistics)
    }

    /// What the store holds, after catching up: `datastore info` prints it. Counting the changes reads all
    /// retained history.
    public func inspect() throws -> StoreInspection {
        let (counts, history, epoch, oldestValid, latest, format) = try readFromFiles { state in
            (
                state.replayed.table.countsByEntity, try allHistory(state), state.replayed.epoch,
                state.replayed.oldestValidSequence, state.replayed.latestSequence, state.journalFormat
            )
        }
        func json(_ sequence: Int64) throws -> String {
            try HistoryTokenCoding.jsonString(
                JSONFileHistoryToken(storeIdentifier: identifier, epoch: epoch, sequence: sequence))
        }
        return StoreInspection(
            // The files' format, which stays older than the library's until the next checkpoint rewrites them.
            backend: "jsonfile", formatVersion: format, storeIdentifier: identifier,
            epoch: epoch, countedThings: "models", countsByEntity: counts,
            details: [.init("oldest valid sequence", "\(oldestValid)")], transactionCount: history.count,
            changeCount: history.reduce(0) { $0 + $1.changes.count },
            oldestUsableToken: try json(oldestValid),
            newestToken: try json(latest))
    }
}
