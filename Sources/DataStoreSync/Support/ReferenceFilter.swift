import DataStoreCore

/// Translates a change's values into the server's identifiers and drops references to models the server no
/// longer holds (deleted by another device), as a nullify delete rule would have: the server refuses a save
/// that links to a missing model.
struct ReferenceFilter {
    /// Whether the server holds the model after the save being built.
    let exists: (PersistentIdentifier) -> Bool
    /// The server's identifier of a device identifier.
    let translate: (PersistentIdentifier) -> PersistentIdentifier

    /// `value` with its identifiers translated.
    func translate(_ value: SnapshotValue) -> SnapshotValue {
        switch value {
        case .identifier(let id): .identifier(translate(id))
        case .array(let values): .array(values.map { translate($0) })
        default: value
        }
    }

    /// `value` (translated) without references to missing models.
    func keepExisting(_ value: SnapshotValue) -> SnapshotValue {
        switch value {
        case .identifier(let id): exists(id) ? value : .null
        case .array(let values):
            .array(
                values.filter {
                    guard case .identifier(let id) = $0 else { return true }
                    return exists(id)
                })
        default: value
        }
    }

    /// An insert's values: translated, limited to the entity's attributes, references to missing models
    /// dropped.
    func filter(_ values: [String: SnapshotValue], of entity: Schema.Entity) -> [String: SnapshotValue] {
        var result: [String: SnapshotValue] = [:]
        for (name, value) in values where entity.attributes.contains(where: { $0.name == name }) {
            let translated = translate(value)
            result[name] = entity.relationship(named: name) == nil ? translated : keepExisting(translated)
        }
        return result
    }
}
