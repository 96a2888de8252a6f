import DataStoreCore

/// The same model in another store: same entity, same primary key. Devices and the server name a model alike
/// but for the store identifier, which is each store's own.
enum IdentifierTranslation {
    /// `identifier` as `store` names it.
    static func translate(_ identifier: PersistentIdentifier, to store: String) -> PersistentIdentifier {
        guard identifier.storeIdentifier != store else { return identifier }
        return PersistentIdentifier(
            storeIdentifier: store, entityName: identifier.entityName, primaryKey: identifier.primaryKey)
    }

    /// `value` with every identifier inside it as `store` names it.
    static func translate(_ value: SnapshotValue, to store: String) -> SnapshotValue {
        switch value {
        case .identifier(let id): .identifier(translate(id, to: store))
        case .array(let values) where values.contains(where: \.holdsIdentifier):
            .array(values.map { translate($0, to: store) })
        default: value
        }
    }

    /// `values` with every identifier inside them as `store` names it.
    static func translate(_ values: [String: SnapshotValue], to store: String) -> [String: SnapshotValue] {
        values.mapValues { translate($0, to: store) }
    }
}

extension SnapshotValue {
    /// Whether the value is an identifier (an element of a to-many relationship's list).
    fileprivate var holdsIdentifier: Bool {
        if case .identifier = self { return true }
        return false
    }
}
