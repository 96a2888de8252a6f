public import DataStoreCore

/// The update of a model of type `Model` (SwiftData's `DefaultHistoryUpdate`).
public struct HistoryUpdate<Model: PersistentModel>: TypedHistoryChange, @unchecked Sendable {
    // `@unchecked`: `updatedAttributes` holds key paths from the model's attribute declarations, which are
    // immutable.

    /// The updated model's identifier.
    public var changedPersistentIdentifier: PersistentIdentifier
    /// The store-wide identifier of the change.
    public var changeIdentifier: Int64
    /// The identifier of the transaction that holds the change.
    public var transactionIdentifier: Int64
    /// The values the change wrote, when the store records them; `nil` otherwise.
    public var recordedValues: [String: SnapshotValue]?
    /// The names of exactly the attributes whose value changed, sorted.
    public var updatedAttributeNames: [String]
    /// The values the update replaced, of the changed attributes marked `.preservePreviousValue`:
    /// `update.previousValues[\Trip.name]` is the name before this update, `nil` when it was not kept.
    public var previousValues: HistoryValues<Model>

    /// Creates an update view.
    public init(
        changedPersistentIdentifier: PersistentIdentifier, changeIdentifier: Int64,
        transactionIdentifier: Int64,
        updatedAttributeNames: [String], recordedValues: [String: SnapshotValue]? = nil,
        previousValues: [String: SnapshotValue]? = nil
    ) {
        self.previousValues = HistoryValues(values: previousValues ?? [:])
        self.recordedValues = recordedValues
        self.changedPersistentIdentifier = changedPersistentIdentifier
        self.changeIdentifier = changeIdentifier
        self.transactionIdentifier = transactionIdentifier
        self.updatedAttributeNames = updatedAttributeNames
    }

    /// The key paths of exactly the attributes whose value changed, as in
    /// `for attribute in update.updatedAttributes { switch attribute { case \Hero.power: … } }`.
    public var updatedAttributes: [PartialKeyPath<Model>] {
        updatedAttributeNames.compactMap { name in Model.schemaAttributes.first { $0.name == name }?.keyPath }
    }

    /// Always `nil` for an update.
    public var tombstoneValues: [String: SnapshotValue]? { nil }

    /// The replaced values by attribute name; `nil` when none was kept.
    public var previousValuesByName: [String: SnapshotValue]? {
        previousValues.values.isEmpty ? nil : previousValues.values
    }
}
