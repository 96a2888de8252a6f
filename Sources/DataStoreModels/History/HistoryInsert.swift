public import DataStoreCore

/// The insert of a model of type `Model`, as seen through history (SwiftData's `DefaultHistoryInsert`).
public struct HistoryInsert<Model: PersistentModel>: TypedHistoryChange {
    /// The inserted model's identifier.
    public var changedPersistentIdentifier: PersistentIdentifier
    /// The store-wide identifier of the change.
    public var changeIdentifier: Int64
    /// The identifier of the transaction that holds the change.
    public var transactionIdentifier: Int64
    /// The values the change wrote, when the store records them; `nil` otherwise.
    public var recordedValues: [String: SnapshotValue]?

    /// Creates an insert view.
    public init(
        changedPersistentIdentifier: PersistentIdentifier, changeIdentifier: Int64,
        transactionIdentifier: Int64, recordedValues: [String: SnapshotValue]? = nil
    ) {
        self.recordedValues = recordedValues
        self.changedPersistentIdentifier = changedPersistentIdentifier
        self.changeIdentifier = changeIdentifier
        self.transactionIdentifier = transactionIdentifier
    }

    /// Always empty for an insert.
    public var updatedAttributeNames: [String] { [] }
    /// Always `nil` for an insert.
    public var tombstoneValues: [String: SnapshotValue]? { nil }
}
