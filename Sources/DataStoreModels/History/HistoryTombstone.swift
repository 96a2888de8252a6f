public import DataStoreCore

/// The values a deleted model kept: exactly its attributes marked `.preserveValueOnDeletion`.
///
/// Read them by key path, `tombstone[\Trip.name]`; an attribute that was not preserved reads as `nil`.
public struct HistoryTombstone<Model: PersistentModel>: Hashable, Sendable {
    /// The preserved values by attribute name.
    public var values: [String: SnapshotValue]

    /// Creates a tombstone from preserved values by attribute name.
    public init(values: [String: SnapshotValue]) {
        self.values = values
    }

    /// The preserved value of the attribute at `keyPath`, or `nil` when it was not preserved (or does not
    /// convert to `Value`).
    public subscript<Value: SnapshotValueConvertible>(keyPath: KeyPath<Model, Value>) -> Value? {
        guard let attribute = Model.schemaAttribute(for: keyPath), let value = values[attribute.name] else {
            return nil
        }
        return Value(snapshotValue: value)
    }

    /// The identifiers a preserved relationship held when the model was deleted (`tombstone[\Book.shelf]`),
    /// or `nil` when it was not preserved: the related models may be gone too, so the tombstone keeps
    /// identifiers, not models.
    public subscript<Value: RelationshipValue>(keyPath: KeyPath<Model, Value>) -> [PersistentIdentifier]? {
        guard let attribute = Model.schemaAttribute(for: keyPath), let value = values[attribute.name] else {
            return nil
        }
        return value.relatedIdentifiers
    }

    /// The key paths of the preserved attributes.
    public var keyPaths: [PartialKeyPath<Model>] {
        Model.schemaAttributes.filter { values[$0.name] != nil }.map(\.keyPath)
    }
}
