public import DataStoreCore

/// Counters of a ``JSONFileDataStore``'s work, for tests and benchmarks to check costs without a clock.
public struct JSONFileStoreStatistics: Hashable, Sendable {
    /// What history queries examined and evaluated.
    public var history = HistoryQueryStatistics()
    /// Bytes appended to the journal by this process's saves.
    public var journalBytesWritten: Int64 = 0
    /// Saves that committed a transaction.
    public var committedSaves = 0
    /// `fdatasync` calls made to commit saves: one per batch of saves written together (group commit), so
    /// fewer than ``committedSaves`` when saves arrive together.
    public var journalSynchronizations = 0
    /// Automatic checkpoints this instance wrote (see `JSONFileStoreConfiguration.checkpointJournalBytes`).
    public var checkpoints = 0
    /// Automatic checkpoints and retention trims that failed (a full disk, say). The saves before them are
    /// committed and the store goes on from the journal; a save tries again once the journal has grown by an
    /// eighth of the checkpoint threshold.
    public var failedMaintenance = 0
    /// Why the latest of them failed; `nil` once a checkpoint or trim succeeds again.
    public var lastMaintenanceError: DataStoreError?
    /// Times the store reread its files from the start (on open, or after another process compacted).
    public var fullReloads = 0
    /// Times it read only what other processes appended since its last look.
    public var incrementalRefreshes = 0
    /// Bytes read from the store's files: the snapshot and journal on opening (never the history segments),
    /// what other processes appended when catching up, and what history fetches read.
    public var bytesRead: Int64 = 0
    /// Models fetches examined: every candidate a predicate was evaluated on. An equality on an indexed
    /// attribute examines only the models holding the value.
    public var modelsExamined = 0

    /// Rows whose values a checkpoint copied from the journal record of the bulk save just before it,
    /// instead of encoding them again (see `RowEncodings`).
    package var checkpointRowsCopied = 0

    /// Zero counters.
    public init() {}

    /// Adds the counters of `work` done aside (on a copy of the state, see `JSONFileDataStore.writeAside`),
    /// and takes its maintenance outcome.
    mutating func add(_ work: JSONFileStoreStatistics) {
        history.add(work.history)
        journalBytesWritten += work.journalBytesWritten
        committedSaves += work.committedSaves
        journalSynchronizations += work.journalSynchronizations
        checkpoints += work.checkpoints
        failedMaintenance += work.failedMaintenance
        lastMaintenanceError = work.lastMaintenanceError
        fullReloads += work.fullReloads
        incrementalRefreshes += work.incrementalRefreshes
        bytesRead += work.bytesRead
        modelsExamined += work.modelsExamined
        checkpointRowsCopied += work.checkpointRowsCopied
    }
}
