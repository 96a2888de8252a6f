public import DataStoreCore

/// One change in a ``JSONFileDataStore`` transaction, with its attribute-level diff.
public struct JSONFileHistoryChange: ValueRecordingHistoryChange, Hashable {
    /// The changed model.
    public var changedPersistentIdentifier: PersistentIdentifier
    /// The store-wide change identifier, growing in commit order.
    public var changeIdentifier: Int64
    /// The transaction's identifier (its sequence).
    public var transactionIdentifier: Int64
    /// Insert, update or delete.
    public var kind: HistoryChangeKind
    /// For an update, the changed attributes' names, sorted; otherwise empty.
    public var updatedAttributes: [String]
    /// For a delete, the preserved values; otherwise `nil`.
    public var tombstone: [String: SnapshotValue]?
    /// For an insert, every value; for an update, the new values of the changed attributes; for a delete,
    /// empty. What the journal records, and what a sync needs to replay the change elsewhere.
    public var values: [String: SnapshotValue]

    /// Creates a change.
    public init(
        changedPersistentIdentifier: PersistentIdentifier, changeIdentifier: Int64,
        transactionIdentifier: Int64,
        kind: HistoryChangeKind, updatedAttributes: [String] = [], tombstone: [String: SnapshotValue]? = nil,
        values: [String: SnapshotValue] = [:]
    ) {
        self.changedPersistentIdentifier = changedPersistentIdentifier
        self.changeIdentifier = changeIdentifier
        self.transactionIdentifier = transactionIdentifier
        self.kind = kind
        self.updatedAttributes = updatedAttributes
        self.tombstone = tombstone
        self.values = values
    }
}
