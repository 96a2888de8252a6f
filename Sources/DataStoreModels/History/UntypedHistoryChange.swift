public import DataStoreCore

/// A change to an entity that the container has no model type for, such as one written by another
/// program with a larger schema. It carries names and values instead of key paths.
public struct UntypedHistoryChange: TypedHistoryChange {
    /// The changed model's identifier.
    public var changedPersistentIdentifier: PersistentIdentifier
    /// The store-wide identifier of the change.
    public var changeIdentifier: Int64
    /// The identifier of the transaction that holds the change.
    public var transactionIdentifier: Int64
    /// The values the change wrote, when the store records them; `nil` otherwise.
    public var recordedValues: [String: SnapshotValue]?
    /// For an update, the names of the changed attributes; otherwise empty.
    public var updatedAttributeNames: [String]
    /// For a delete, the preserved values by attribute name; otherwise `nil`.
    public var tombstoneValues: [String: SnapshotValue]?
    /// The values an update or delete replaced, by attribute name; `nil` when none was kept.
    public var previousValuesByName: [String: SnapshotValue]?

    /// Creates an untyped change.
    public init(
        changedPersistentIdentifier: PersistentIdentifier, changeIdentifier: Int64,
        transactionIdentifier: Int64,
        updatedAttributeNames: [String] = [], tombstoneValues: [String: SnapshotValue]? = nil,
        recordedValues: [String: SnapshotValue]? = nil, previousValuesByName: [String: SnapshotValue]? = nil
    ) {
        self.previousValuesByName = previousValuesByName
        self.recordedValues = recordedValues
        self.changedPersistentIdentifier = changedPersistentIdentifier
        self.changeIdentifier = changeIdentifier
        self.transactionIdentifier = transactionIdentifier
        self.updatedAttributeNames = updatedAttributeNames
        self.tombstoneValues = tombstoneValues
    }
}
