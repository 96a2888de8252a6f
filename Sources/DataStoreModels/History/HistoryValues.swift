public import DataStoreCore

/// The values a deleted model kept (exactly its attributes marked `.preserveValueOnDeletion`), SwiftData's
/// `HistoryTombstone`.
public typealias HistoryTombstone<Model: PersistentModel> = HistoryValues<Model>

/// Attribute values a history change kept, read by key path: a delete's tombstone (`tombstone[\Trip.name]`)
/// or the values an update or delete replaced (`update.previousValues[\Trip.name]`). An attribute that was not
/// kept reads as `nil`.
public struct HistoryValues<Model: PersistentModel>: Hashable, Sendable {
    /// The kept values by attribute name.
    public var values: [String: SnapshotValue]

    /// Creates the view of kept values by attribute name.
    public init(values: [String: SnapshotValue]) {
        self.values = values
    }

    /// The kept value of the attribute at `keyPath`, or `nil` when it was not kept (or does not convert to
    /// `Value`).
    public subscript<Value: SnapshotValueConvertible>(keyPath: KeyPath<Model, Value>) -> Value? {
        guard let attribute = Model.schemaAttribute(for: keyPath), let value = values[attribute.name] else {
            return nil
        }
        return Value(snapshotValue: value)
    }

    /// The identifiers a kept relationship held (`tombstone[\Book.shelf]`), or `nil` when it was not kept:
    /// the related models may be gone, so history keeps identifiers, not models.
    public subscript<Value: RelationshipValue>(keyPath: KeyPath<Model, Value>) -> [PersistentIdentifier]? {
        guard let attribute = Model.schemaAttribute(for: keyPath), let value = values[attribute.name] else {
            return nil
        }
        return value.relatedIdentifiers
    }

    /// The key paths of the kept attributes.
    public var keyPaths: [PartialKeyPath<Model>] {
        Model.schemaAttributes.filter { values[$0.name] != nil }.map(\.keyPath)
    }
}
