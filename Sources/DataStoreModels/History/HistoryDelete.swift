public import DataStoreCore

/// The delete of a model of type `Model`, with its preserved values (SwiftData's `DefaultHistoryDelete`).
public struct HistoryDelete<Model: PersistentModel>: TypedHistoryChange {
    /// The deleted model's identifier.
    public var changedPersistentIdentifier: PersistentIdentifier
    /// The store-wide identifier of the change.
    public var changeIdentifier: Int64
    /// The identifier of the transaction that holds the change.
    public var transactionIdentifier: Int64
    /// The values of the attributes marked `.preserveValueOnDeletion`: `tombstone[\Trip.name]`.
    public var tombstone: HistoryTombstone<Model>
    /// The values the model had when deleted, of every attribute marked `.preservePreviousValue`: with the
    /// tombstone, what an undo needs to insert it again.
    public var previousValues: HistoryValues<Model>

    /// Creates a delete view.
    public init(
        changedPersistentIdentifier: PersistentIdentifier, changeIdentifier: Int64,
        transactionIdentifier: Int64,
        tombstone: HistoryTombstone<Model>, previousValues: [String: SnapshotValue]? = nil
    ) {
        self.previousValues = HistoryValues(values: previousValues ?? [:])
        self.changedPersistentIdentifier = changedPersistentIdentifier
        self.changeIdentifier = changeIdentifier
        self.transactionIdentifier = transactionIdentifier
        self.tombstone = tombstone
    }

    /// Always empty for a delete.
    public var updatedAttributeNames: [String] { [] }
    /// The preserved values by attribute name.
    public var tombstoneValues: [String: SnapshotValue]? { tombstone.values }

    /// Always `nil` for a delete.
    public var recordedValues: [String: SnapshotValue]? { nil }

    /// The values when deleted by attribute name; `nil` when none was kept.
    public var previousValuesByName: [String: SnapshotValue]? {
        previousValues.values.isEmpty ? nil : previousValues.values
    }
}
