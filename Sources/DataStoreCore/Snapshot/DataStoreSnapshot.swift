/// One model instance's persisted state: its identifier and its attribute values by name.
///
/// Snapshots are what crosses the store interface. The model layer encodes a model into a snapshot on
/// save and decodes snapshots into models on fetch, so a store never needs the model types.
public struct DataStoreSnapshot: Hashable, Codable, Sendable {
    /// The identifier of the model instance.
    public var persistentIdentifier: PersistentIdentifier
    /// The attribute values by attribute name. A missing name reads as ``SnapshotValue/null``.
    public var values: [String: SnapshotValue]

    /// Creates a snapshot.
    public init(persistentIdentifier: PersistentIdentifier, values: [String: SnapshotValue]) {
        self.persistentIdentifier = persistentIdentifier
        self.values = values
    }

    /// The value of the named attribute, or ``SnapshotValue/null`` when absent.
    public subscript(attribute name: String) -> SnapshotValue {
        values[name] ?? .null
    }

    /// The names of the attributes whose values differ between `self` and `newer`, sorted.
    ///
    /// An attribute missing on one side counts as ``SnapshotValue/null`` there, so adding an explicit
    /// `null` is not a change.
    public func changedAttributes(to newer: DataStoreSnapshot) -> [String] {
        // One lookup per attribute `newer` has; only when `self` has attributes `newer` lacks, a second pass.
        var changed: [String] = []
        var shared = 0
        for (name, value) in newer.values {
            if let old = values[name] {
                shared += 1
                if old != value { changed.append(name) }
            } else if value != .null {
                changed.append(name)
            }
        }
        if shared < values.count {
            for (name, value) in values where newer.values[name] == nil && value != .null {
                changed.append(name)
            }
        }
        // In place: `sorted()` would copy the array it just built.
        changed.sort()
        return changed
    }
}
