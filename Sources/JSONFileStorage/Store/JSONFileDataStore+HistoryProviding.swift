public import DataStoreCore
import Foundation
import StoreFileSupport
import Synchronization

extension JSONFileDataStore: HistoryProviding {
    /// The store's transaction type.
    public typealias HistoryType = JSONFileHistoryTransaction

    /// Fetches history after catching up, seeking by binary search on the predicate's bounds.
    public func fetchHistory(_ descriptor: HistoryDescriptor<JSONFileHistoryTransaction>) throws
        -> [JSONFileHistoryTransaction]
    {
        let (historyQuery, log) = try read { state in
            (query(for: state.replayed), state.replayed.history)
        }
        var statistics = HistoryQueryStatistics()
        defer { access.inMemory { $0.statistics.history.add(statistics) } }
        return try historyQuery.run(descriptor, over: log, statistics: &statistics)
    }

    /// Deletes the matching transactions and reclaims their space: a `forget` record is appended, then the
    /// store is compacted (snapshot and journal replaced atomically). Tokens older than the newest deleted
    /// transaction expire in every process.
    public func deleteHistory(_ descriptor: HistoryDescriptor<JSONFileHistoryTransaction>) throws {
        try write { state in
            var statistics = HistoryQueryStatistics()
            var everything = descriptor
            everything.fetchLimit = nil
            let doomed = try query(for: state.replayed).run(
                everything, over: state.replayed.history, statistics: &statistics)
            state.statistics.history.add(statistics)
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

    /// Trims history to the configuration's ``JSONFileStoreConfiguration/HistoryRetention`` after a save, holding
    /// the write lock: once it exceeds a limit by the margin, the oldest transactions beyond the count limit and
    /// those past the age limit are forgotten; the store compacts once the forgotten outnumber the kept. A journal
    /// past the byte limit is trimmed to the newest transactions that fit in half of it and compacted at once.
    func applyRetention(_ state: inout State) throws {
        let policy = configuration.historyRetention
        guard !policy.keepsEverything else { return }
        let history = state.replayed.history
        var excess = 0
        if let limit = policy.maximumTransactionCount, history.count >= limit + policy.margin {
            excess = history.count - limit
        }
        if let age = policy.maximumAge {
            let cutoff = Date().addingTimeInterval(-age)
            // Timestamps never decrease along history: the old ones are a prefix. Trim them in batches too.
            let old = history.partitioningIndex { $0.timestamp >= cutoff }
            if old >= policy.margin || old == history.count { excess = max(excess, old) }
        }
        // Past the byte bound: keep the newest transactions whose records fit in half of it, and compact now, so
        // the journal starts again nearly empty (the other half is room for the saves until the next trim).
        var compactNow = false
        if let bound = policy.maximumBytes, state.journalEnd > bound {
            var budget = bound / 2
            var kept = 0
            for transaction in history.reversed() {
                let size = Int64(TransactionCodec.encode(state.replayed.record(of: transaction)).count) + 1
                guard size <= budget else { break }
                budget -= size
                kept += 1
            }
            excess = max(excess, history.count - kept)
            compactNow = true
        }
        guard excess > 0 || compactNow else { return }
        if excess > 0 {
            _ = try forget(history.prefix(excess).map(\.token.sequence), in: &state)
            state.forgottenSinceCompaction += excess
        }
        if compactNow || state.forgottenSinceCompaction > state.replayed.history.count {
            try compact(&state)
            state.forgottenSinceCompaction = 0
        }
    }

    /// Folds the journal into the snapshot file, reclaiming the space of deleted history and replayed records.
    /// Crash-safe: each file is replaced by writing a temporary file, fsyncing it and renaming it.
    public func compact() throws {
        try write { state in try compact(&state) }
    }

    /// An automatic checkpoint: a compaction, counted.
    func checkpoint(_ state: inout State) throws {
        try compact(&state)
        state.forgottenSinceCompaction = 0
        state.statistics.checkpoints += 1
    }

    private func compact(_ state: inout State) throws {
        try JournalIO.compact(state.replayed, files: files)
        guard let status = StoreFile.status(atPath: files.journal) else {
            throw DataStoreError.storageUnavailable(
                path: files.journal, reason: "the journal vanished during compaction")
        }
        state.journalIdentity = status.identity
        state.journalEnd = status.size
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
