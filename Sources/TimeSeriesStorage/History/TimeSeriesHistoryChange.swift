public import DataStoreCore

/// One sample in a ``TimeSeriesDataStore`` transaction: always an insert.
public struct TimeSeriesHistoryChange: ValueRecordingHistoryChange, Hashable {
    /// The sample's identifier.
    public var changedPersistentIdentifier: PersistentIdentifier
    /// The store-wide change identifier, growing in commit order.
    public var changeIdentifier: Int64
    /// The transaction's identifier (its sequence).
    public var transactionIdentifier: Int64
    /// The sample's values.
    public var values: [String: SnapshotValue]

    /// Creates a change.
    public init(
        changedPersistentIdentifier: PersistentIdentifier, changeIdentifier: Int64,
        transactionIdentifier: Int64,
        values: [String: SnapshotValue]
    ) {
        self.changedPersistentIdentifier = changedPersistentIdentifier
        self.changeIdentifier = changeIdentifier
        self.transactionIdentifier = transactionIdentifier
        self.values = values
    }

    /// Always ``HistoryChangeKind/insert``.
    public var kind: HistoryChangeKind { .insert }
    /// Always empty.
    public var updatedAttributes: [String] { [] }
    /// Always `nil`.
    public var tombstone: [String: SnapshotValue]? { nil }
}
