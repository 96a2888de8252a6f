/// The insert of a model of type `Model`, as seen through history (SwiftData's `DefaultHistoryInsert`).
public struct HistoryInsert<Model: PersistentModel>: TypedHistoryChange {
    /// The inserted model's identifier.
    public var changedPersistentIdentifier: PersistentIdentifier
    /// The store-wide identifier of the change.
    public var changeIdentifier: Int64
    /// The identifier of the transaction that holds the change.
    public var transactionIdentifier: Int64

    /// Creates an insert view.
    public init(
        changedPersistentIdentifier: PersistentIdentifier, changeIdentifier: Int64,
        transactionIdentifier: Int64
    ) {
        self.changedPersistentIdentifier = changedPersistentIdentifier
        self.changeIdentifier = changeIdentifier
        self.transactionIdentifier = transactionIdentifier
    }

    /// Always empty for an insert.
    public var updatedAttributeNames: [String] { [] }
    /// Always `nil` for an insert.
    public var tombstoneValues: [String: SnapshotValue]? { nil }
}
