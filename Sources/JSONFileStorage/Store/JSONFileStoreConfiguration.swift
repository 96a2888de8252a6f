public import DataStoreCore
public import Foundation

/// Describes a ``JSONFileDataStore``: where it lives, how durable its saves are, and whether it may write.
public struct JSONFileStoreConfiguration: DataStoreConfiguration {
    /// The store opened from this configuration.
    public typealias Store = JSONFileDataStore

    /// How much a save waits for the disk before returning.
    public enum Durability: String, Hashable, Sendable {
        /// `save` returns after the journal record is fsynced: an acknowledged save survives a crash or power
        /// loss. The default.
        case full
        /// `save` returns after the record is written to the operating system, without fsync. A process crash
        /// loses nothing; a power loss or kernel crash may lose the most recent saves (never a partial one:
        /// a torn record is cut back on the next open). A power loss can also leave a damaged record that is
        /// not the last one; opening then throws, and `datastore repair` cuts the journal back.
        case relaxed
    }

    /// The store's name and identifier; it must match the name recorded in the files.
    public var name: String
    /// The schema; a model container fills it in.
    public var schema: Schema?
    /// The directory that holds the store's files; created if missing (unless read-only).
    public var directory: URL
    /// How durable saves are.
    public var durability: Durability
    /// Open without ever writing: not the journal, not the lock file, not a recovery truncation.
    public var isReadOnly: Bool
    /// How long a call waits for another process's lock on the store before it throws
    /// ``DataStoreError/storeLocked(path:)``. Ten seconds by default; zero fails at once.
    public var busyTimeout: Duration = .seconds(10)
    /// How much history to keep; everything by default (see ``HistoryRetention``).
    public var historyRetention = HistoryRetention.keepEverything
    /// The journal size past which a save is followed by an automatic checkpoint: the store moves the journal's
    /// transactions into a history segment, writes a new snapshot of the models and starts an empty journal
    /// (what `compact()` does), so that opening reads the snapshot and a journal of at most about this many
    /// bytes (or ``checkpointJournalRatio`` times the snapshot's size, if that is more), whatever the history it
    /// retains. 4 MiB by default (replaying that takes about 0.2 s); `nil` never checkpoints on its own. It holds
    /// the store's lock while it writes (other processes' writers wait about as long as opening the store
    /// takes), and is crash-safe: a crash at any point leaves the old files or the new ones.
    public var checkpointJournalBytes: Int64? = 4 << 20
    /// How large the journal may grow, as a multiple of the snapshot's size, before an automatic checkpoint is
    /// due, when that is more than ``checkpointJournalBytes``. A checkpoint writes every model again, so with a
    /// fixed threshold its cost per saved byte grows with the store (a store of 100,000 small models has a
    /// snapshot of about 19 MB, which a 4 MiB threshold would rewrite for every 4 MiB saved). With the default
    /// of 1, a checkpoint writes at most about as many bytes as the saves since the last one, and opening reads
    /// a journal at most about as large as the snapshot (as Redis rewrites its append-only file when it has
    /// doubled). `nil` checkpoints at ``checkpointJournalBytes`` whatever the snapshot's size.
    public var checkpointJournalRatio: Double? = 1
    /// How many of the newest history changes an instance keeps decoded, to answer tail reads without reading
    /// a file; a transaction with more changes than this is not kept (the tail after it is read from the
    /// files). Internal: tests set it to 0 so that every history read goes to the files.
    var recentHistoryChanges = 2_048

    /// Creates a configuration.
    public init(
        name: String, schema: Schema? = nil, directory: URL, durability: Durability = .full,
        isReadOnly: Bool = false
    ) {
        self.name = name
        self.schema = schema
        self.directory = directory
        self.durability = durability
        self.isReadOnly = isReadOnly
    }
}
