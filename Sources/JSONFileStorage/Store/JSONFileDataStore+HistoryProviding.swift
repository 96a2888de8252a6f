@_spi(DataStoreInternals) public import DataStoreCore
@_spi(DataStoreInternals) import DataStoreKit
import Foundation
import Synchronization

extension JSONFileDataStore: HistoryProvidingStore {
    /// The store's transaction type.
    public typealias HistoryType = JSONFileHistoryTransaction

    /// Fetches history after catching up, reading the history files from the sparse index's mark before the
    /// first candidate (see ``JSONFileStoreStatistics/bytesRead``).
    public func fetchHistory(_ descriptor: HistoryDescriptor<JSONFileHistoryTransaction>) throws
        -> [JSONFileHistoryTransaction]
    {
        try fetchHistory(descriptor, readingFiles: false)
    }

    /// As above; with `readingFiles`, catches up under the shared lock even when the lock file's change count
    /// says nothing changed: for a change feed woken by a write still in progress.
    func fetchHistory(_ descriptor: HistoryDescriptor<JSONFileHistoryTransaction>, readingFiles: Bool) throws
        -> [JSONFileHistoryTransaction]
    {
        let snapshot = { (state: inout State) throws in
            try self.checkSchema(state)
            return (self.query(for: state.replayed), state)
        }
        let (historyQuery, current) = try readingFiles ? readFromFiles(snapshot) : read(snapshot)
        try historyReadHook.withLock { hook in
            defer { hook = nil }
            return hook
        }?()
        do {
            let source = JSONFileHistorySource(current, directory: files)
            var statistics = HistoryQueryStatistics()
            defer { access.inMemory { Self.count(statistics, source, in: &$0) } }
            return try historyQuery.run(descriptor, source: source, statistics: &statistics)
        } catch is JSONFileHistorySource.StaleIndex {
            // A checkpoint, by this instance or another process, replaced the files meanwhile. Under the shared
            // lock no writer removes a file, so a file missing now was removed by something other than a store.
            // The counters are updated in place: the state's lock is held here.
            do {
                return try readFromFiles { state in
                    let source = JSONFileHistorySource(state, directory: files)
                    var statistics = HistoryQueryStatistics()
                    defer { Self.count(statistics, source, in: &state) }
                    return try query(for: state.replayed).run(
                        descriptor, source: source, statistics: &statistics)
                }
            } catch let stale as JSONFileHistorySource.StaleIndex {
                throw DataStoreError.corruptStoreFile(
                    path: stale.path, offset: 0, reason: "a history file the snapshot lists is missing")
            }
        }
    }

    /// For tests: runs once, in the next history fetch, after the fetch read the store's state and before it
    /// reads the history files (a checkpoint made there replaces them, and the fetch reads them again).
    package var beforeHistoryFilesRead: (@Sendable () throws -> Void)? {
        get { historyReadHook.withLock { $0 } }
        set { historyReadHook.withLock { $0 = newValue } }
    }

    /// Adds the work of one history query to the store's counters.
    private static func count(
        _ statistics: HistoryQueryStatistics, _ source: JSONFileHistorySource, in state: inout State
    ) {
        state.statistics.history.add(statistics)
        state.statistics.bytesRead += source.bytesRead
    }

    /// Deletes the matching transactions and reclaims their space: a `forget` record is appended, then the
    /// store is checkpointed (segments without them, a new snapshot and an empty journal). Tokens older than
    /// the newest deleted transaction expire in every process.
    public func deleteHistory(_ descriptor: HistoryDescriptor<JSONFileHistoryTransaction>) throws {
        try writeAside { state in
            var statistics = HistoryQueryStatistics()
            var everything = descriptor
            everything.fetchLimit = nil
            let source = JSONFileHistorySource(state, directory: files)
            let doomed = try query(for: state.replayed).run(
                everything, source: source, statistics: &statistics)
            state.statistics.history.add(statistics)
            state.statistics.bytesRead += source.bytesRead
            guard try forget(doomed.map(\.token.sequence), in: &state) else { return }
            try compact(&state)
        }
    }

    /// Appends a `forget` record for `sequences` (in commit order) and applies it; `false` when there is none.
    private func forget(_ sequences: [Int64], in state: inout State) throws -> Bool {
        guard let newest = sequences.last else { return false }
        let forget = JournalRecord.ForgetRecord(
            sequences: sequences, oldestValid: max(state.replayed.oldestValidSequence, newest))
        state.journalEnd += try JournalIO.append(
            .forget(forget), files: files, at: state.journalEnd, synchronize: true)
        try state.replayed.apply(.forget(forget), offset: state.journalEnd, path: files.journal)
        return true
    }

    /// Trims history to the configuration's ``JSONFileStoreConfiguration/HistoryRetention``, holding the write
    /// lock: once it exceeds a limit by the margin, the oldest transactions beyond the count limit and those
    /// past the age limit are forgotten; the store checkpoints once the forgotten outnumber the kept. History
    /// files past the byte limit are trimmed to the newest transactions that fit in half of it, and
    /// checkpointed at once.
    func applyRetention(_ state: inout State) throws {
        let policy = configuration.historyRetention
        guard !policy.keepsEverything else { return }
        let index = state.replayed.history
        var doomed: Int64 = index.forgottenThrough  // forget every retained sequence up to this one
        if let limit = policy.maximumTransactionCount, index.count >= limit + policy.margin {
            doomed = max(doomed, index.oldest(index.count - limit).last ?? doomed)
        }
        if let age = policy.maximumAge {
            doomed = max(doomed, try newestSequence(before: Date().addingTimeInterval(-age), in: &state))
        }
        // Past the byte bound: keep the newest transactions that fit in half of it, and checkpoint now, so the files
        // hold about half the bound (the other half is room for the saves until the next trim).
        var checkpointNow = false
        if let bound = policy.maximumBytes, index.fileBytes(journalEnd: state.journalEnd) > bound {
            let source = JSONFileHistorySource(state, directory: files)
            let keptFrom = try source.oldestSequence(fittingIn: bound / 2) ?? index.latest + 1
            state.statistics.bytesRead += source.bytesRead
            doomed = max(doomed, keptFrom - 1)
            checkpointNow = true
        }
        let excess = index.retained(through: doomed)
        // Trim in batches (one `forget` record per margin's worth of saves), unless the bytes say now.
        guard excess.count >= policy.margin || excess.count == index.count || checkpointNow else { return }
        if !excess.isEmpty {
            _ = try forget(Array(excess), in: &state)
            state.forgottenSinceCompaction += excess.count
        }
        if checkpointNow || state.forgottenSinceCompaction > state.replayed.history.count {
            try compact(&state)
            state.forgottenSinceCompaction = 0
        }
    }

    /// The newest retained sequence committed before `cutoff` (or the newest forgotten one when none is).
    /// The oldest retained transaction's timestamp, remembered until a trim changes which one is oldest,
    /// answers "nothing is that old" without reading a file; otherwise the sparse index bounds the answer and
    /// the one block that straddles the cutoff is read to find it exactly.
    private func newestSequence(before cutoff: Date, in state: inout State) throws -> Int64 {
        let index = state.replayed.history
        guard let first = index.oldest(1).first else { return index.forgottenThrough }
        let source = JSONFileHistorySource(state, directory: files)
        defer { state.statistics.bytesRead += source.bytesRead }
        if index.oldestTimestamp?.sequence != first {
            let oldest = try source.transactions(
                after: first - 1, through: first, bounds: HistoryPredicateBounds(), limit: 1)
            state.replayed.history.oldestTimestamp = oldest.first.map { (first, $0.timestamp) }
        }
        if let known = state.replayed.history.oldestTimestamp, known.timestamp >= cutoff {
            return index.forgottenThrough
        }
        var bounds = HistoryPredicateBounds<JSONFileHistoryTransaction>()
        bounds.upperTimestamp = .init(value: cutoff, isInclusive: false)
        let after = max(index.newestMarkedSequence(before: cutoff) ?? 0, index.forgottenThrough + 1) - 1
        // Everything up to the newest old mark is old; read on from there until a transaction is not.
        let old = try source.transactions(
            after: after, through: index.latest, bounds: bounds, limit: HistoryIndex.Mark.spacing + 1)
        return max(after, old.last?.token.sequence ?? after)
    }

    /// Writes a checkpoint now: the journal's transactions move to a history segment, segments holding
    /// forgotten transactions are rewritten without them, and the snapshot and an empty journal replace the
    /// old ones (see `Docs/JSONFileFormat.md`). Crash-safe: each file is written to a temporary file, fsynced
    /// and renamed.
    public func compact() throws {
        try writeAside { state in try compact(&state) }
    }

    /// An automatic checkpoint: a compaction, counted.
    func checkpoint(_ state: inout State) throws {
        try compact(&state)
        state.forgottenSinceCompaction = 0
        state.statistics.checkpoints += 1
    }

    private func compact(_ state: inout State) throws {
        state.statistics.checkpointRowsCopied += try JournalIO.checkpoint(
            &state.replayed, files: files, journalEnd: state.journalEnd,
            reusing: recentEncodings.withLock { $0 })
        openJournal.close()
        // Held open from here: the state now refers to this journal (see `PinnedFile`).
        let journal = try StoreFile(path: files.journal, mode: .readOnly)
        state.journalPin = try PinnedFile(journal)
        state.journalEnd = try journal.status().size
        state.journalFormat = ReplayedState.formatVersion
    }

    func query(for state: ReplayedState) -> HistoryQuery<JSONFileHistoryTransaction> {
        HistoryQuery(
            storeIdentifier: identifier, epoch: state.epoch, oldestValidSequence: state.oldestValidSequence,
            latestSequence: state.latestSequence)
    }
}

extension JSONFileDataStore: HistoryReadCounting {
    /// The history transactions this instance examined since it was opened.
    public var historyTransactionsExamined: Int { statistics.history.examinedTransactions }
}
