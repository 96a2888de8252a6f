import DataStoreCore
import DataStoreKit
import Foundation

/// A JSON file store's retained history read from its files, as a ``HistorySource``: each batch starts at the
/// sparse index's mark before the first wanted transaction and reads forward, in chunks, until the batch is
/// full, the range ends or the timestamps pass the predicate's upper bound. So a fetch after a recent token
/// reads about its result and one block of the index, never all of history.
///
/// It reads what one state of the store lists. When a checkpoint has replaced the files since (another
/// process's, or this instance's on another thread: a segment is gone, or the journal was replaced), it throws
/// ``StaleIndex`` and the store reads its files again and asks once more, holding the shared lock that keeps
/// writers from removing files.
final class JSONFileHistorySource: HistorySource {
    /// A listed file is gone or replaced: the state this source was made from is out of date.
    struct StaleIndex: Error {
        /// The file.
        var path: String
    }

    private let directory: StoreDirectory
    private let index: HistoryIndex
    private let journalEnd: Int64
    private let journalIdentity: StoreFile.Identity
    private let storeIdentifier: String
    private let epoch: UUID
    /// Bytes read from files so far.
    private(set) var bytesRead: Int64 = 0

    /// The first read asks for this much; a record longer than a chunk grows it.
    static let chunkBytes = 16 * 1_024

    init(_ state: JSONFileDataStore.State, directory: StoreDirectory) {
        self.directory = directory
        index = state.replayed.history
        journalEnd = state.journalEnd
        journalIdentity = state.journalIdentity
        storeIdentifier = state.replayed.storeIdentifier
        epoch = state.replayed.epoch
    }

    func transactions(
        after: Int64, through: Int64, bounds: HistoryPredicateBounds<JSONFileHistoryTransaction>, limit: Int
    ) throws -> [JSONFileHistoryTransaction] {
        var result: [JSONFileHistoryTransaction] = []
        guard limit > 0 else { return result }
        // Whether a transaction with this sequence and timestamp is wanted (`nil`: none after it is).
        func wants(_ sequence: Int64, _ timestamp: Date) -> Bool? {
            if sequence > through { return nil }
            if let upper = bounds.upperTimestamp,
                upper.isInclusive ? timestamp > upper.value : timestamp >= upper.value
            {
                return nil
            }
            return sequence > after && index.isRetained(sequence)
        }
        // The tail, from the cache of the newest transactions, when it holds everything after `after`.
        if let cached = index.recent.suffix(after: after) {
            for transaction in cached {
                guard let wanted = wants(transaction.token.sequence, transaction.timestamp) else { break }
                if wanted { result.append(transaction) }
                if result.count == limit { break }
            }
            return result
        }
        // Returns whether to go on.
        func take(_ body: JournalRecord.TransactionRecord) -> Bool {
            guard let wanted = wants(body.sequence, body.timestamp) else { return false }
            if wanted {
                result.append(ReplayedState.transaction(body, storeIdentifier: storeIdentifier, epoch: epoch))
            }
            return result.count < limit
        }
        for body in index.inline where body.sequence > after {
            guard take(body) else { return result }
        }
        for file in index.files(journalEnd: journalEnd) {
            guard file.first <= through else { break }
            guard let start = file.start(after: after, notBefore: bounds.lowerTimestamp?.value) else {
                continue
            }
            guard try forEachTransaction(in: file, from: start, take) else { break }
        }
        return result
    }

    /// The oldest retained sequence from which on history fits in `budget` bytes of its files (whole blocks
    /// from the index, then the records of the one block that straddles the budget), or `nil` when not even
    /// the newest transaction fits.
    func oldestSequence(fittingIn budget: Int64) throws -> Int64? {
        var remaining = budget
        var oldest: Int64?
        for file in index.files(journalEnd: journalEnd).reversed() {
            var end = file.end
            for mark in file.marks.reversed() {
                guard end - mark.offset > remaining else {
                    remaining -= end - mark.offset
                    oldest = mark.sequence
                    end = mark.offset
                    continue
                }
                var starts: [(sequence: Int64, offset: Int64)] = []
                _ = try forEachTransaction(in: file, from: mark.offset) { body, offset in
                    guard offset < end else { return false }
                    starts.append((body.sequence, offset))
                    return true
                }
                for start in starts.reversed() where end - start.offset <= remaining {
                    oldest = start.sequence
                }
                return oldest
            }
        }
        return oldest
    }

    /// Calls `visit` with each transaction record of `file` from `offset` on, in order, until it returns
    /// `false`. Returns whether it reached the end of the file.
    func forEachTransaction(
        in file: HistoryIndex.File, from offset: Int64,
        _ visit: (JournalRecord.TransactionRecord) throws -> Bool
    ) throws -> Bool {
        try forEachTransaction(in: file, from: offset) { body, _ in try visit(body) }
    }

    /// As above, with the offset of each transaction's record (of the schema record that holds it).
    func forEachTransaction(
        in file: HistoryIndex.File, from offset: Int64,
        _ visit: (JournalRecord.TransactionRecord, Int64) throws -> Bool
    ) throws -> Bool {
        let handle = try open(file)
        var position = offset
        var chunk = Self.chunkBytes
        while position < file.end {
            let bytes = try handle.read(from: position, count: min(chunk, Int(file.end - position)))
            bytesRead += Int64(bytes.count)
            let parsed = try RecordFraming.parse(bytes, startingAt: position, path: handle.path)
            guard !parsed.records.isEmpty else {
                // A record longer than the chunk: read more at once. Past the end, the file is short.
                guard position + Int64(bytes.count) < file.end else {
                    throw DataStoreError.corruptStoreFile(
                        path: handle.path, offset: position,
                        reason: "the history file ends inside a record the index lists")
                }
                chunk *= 4
                continue
            }
            for record in parsed.records {
                switch try JournalIO.decode(record, path: handle.path) {
                case .transaction(let body):
                    guard try visit(body, record.offset) else { return false }
                case .schema(let body):
                    if let body = body.transaction {
                        guard try visit(body, record.offset) else { return false }
                    }
                default:
                    continue
                }
            }
            position = parsed.endOfValidData
        }
        return true
    }

    /// Opens a listed file, throwing ``StaleIndex`` when it is no longer the file the index describes.
    private func open(_ file: HistoryIndex.File) throws -> StoreFile {
        let path = directory.file(file.name)
        let handle: StoreFile
        do {
            handle = try StoreFile(path: path, mode: .readOnly)
        } catch {
            if !StoreFile.exists(path) { throw StaleIndex(path: path) }
            throw error
        }
        if file.name == StoreDirectory.journalName, try handle.status().identity != journalIdentity {
            throw StaleIndex(path: path)
        }
        return handle
    }
}
