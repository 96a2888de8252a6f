public import DataStoreCore

/// One change in an ``InMemoryDataStore`` transaction: the insert, update or delete of one model.
public struct InMemoryHistoryChange: HistoryChange, Hashable {
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

    /// Creates a change.
    public init(
        changedPersistentIdentifier: PersistentIdentifier, changeIdentifier: Int64,
        transactionIdentifier: Int64,
        kind: HistoryChangeKind, updatedAttributes: [String] = [], tombstone: [String: SnapshotValue]? = nil
    ) {
        self.changedPersistentIdentifier = changedPersistentIdentifier
        self.changeIdentifier = changeIdentifier
        self.transactionIdentifier = transactionIdentifier
        self.kind = kind
        self.updatedAttributes = updatedAttributes
        self.tombstone = tombstone
    }
}
