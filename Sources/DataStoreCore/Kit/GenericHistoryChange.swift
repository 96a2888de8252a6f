/// One change in a transaction: the insert, update or delete of one model, with the values it wrote. One
/// type serves every backend; backends name it through a type alias (`JSONFileHistoryChange`, …).
public struct GenericHistoryChange<Kind: HistoryTokenKind>: ValueRecordingHistoryChange, Hashable, Codable {
    /// The changed model.
    public var changedPersistentIdentifier: PersistentIdentifier
    /// The store-wide change identifier, growing in commit order.
    public var changeIdentifier: Int64
    /// The transaction's identifier.
    public var transactionIdentifier: Int64
    /// Insert, update or delete.
    public var kind: HistoryChangeKind
    /// For an update, the changed attributes' names, sorted; otherwise empty.
    public var updatedAttributes: [String]
    /// For a delete, the preserved values; otherwise `nil`.
    public var tombstone: [String: SnapshotValue]?
    /// For an insert, every value; for an update, the new values of the changed attributes; for a delete,
    /// empty. What a sync needs to replay the change elsewhere.
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

    /// The change a planned save change becomes, numbered `changeIdentifier` in transaction
    /// `transactionIdentifier`.
    public init(_ planned: PlannedChange, changeIdentifier: Int64, transactionIdentifier: Int64) {
        self.init(
            changedPersistentIdentifier: planned.identifier, changeIdentifier: changeIdentifier,
            transactionIdentifier: transactionIdentifier, kind: planned.kind,
            updatedAttributes: planned.updatedAttributes, tombstone: planned.tombstone, values: planned.values
        )
    }
}
