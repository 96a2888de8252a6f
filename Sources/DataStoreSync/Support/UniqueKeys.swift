import DataStoreCore

/// The unique values a model holds, as keys that tell one entity's and one constraint's values apart.
enum UniqueKeys {
    /// The values a model of `entity` holds of each of the entity's unique constraints: the entity's name, the
    /// constraint's position and its attributes' values (in the identifiers of the store `values` come from).
    static func of(_ values: [String: SnapshotValue], in entity: Schema.Entity) -> [[SnapshotValue]] {
        entity.uniqueConstraints.enumerated().map { index, constraint in
            [.string(entity.name), .integer(Int64(index))] + constraint.map { values[$0] ?? .null }
        }
    }
}
