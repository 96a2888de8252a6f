public import DataStoreCore

/// What opening a store under a new schema does to the rows it holds: a lightweight migration, as SwiftData
/// applies without a plan. Backends compute it with ``between(stored:target:store:rows:)`` when the schema
/// they are opened with differs from the one they recorded, persist it with the new schema, and apply it to
/// every row with ``upgrade(_:entity:)``.
///
/// Safe without a plan: adding an entity; adding an attribute (existing rows get its default, the value in the
/// model's `init()`); removing an attribute that no stored row holds a value for, or any attribute when the
/// target schema declares a version newer than the stored one (a `VersionedSchema`: the app says it means to
/// drop it; an unversioned schema may be an older build of the app that never knew it); renaming one through `Schema/Attribute/originalName`; making an
/// attribute optional; adding or removing options, when an added `.unique` (or unique set) finds no collision
/// among the stored values; removing an entity that holds no rows. Anything else, and a target whose version is
/// older than the stored one, throws
/// `DataStoreError/incompatibleSchema(store:entity:attribute:reason:)`. Applying an upgrade twice does the
/// same as applying it once, so replaying a record a crash left behind is harmless.
public struct SchemaUpgrade: Hashable, Codable, Sendable {
    /// What changes for one entity's rows.
    public struct EntityChanges: Hashable, Codable, Sendable {
        /// Stored attribute name → new name.
        public var renamed: [String: String] = [:]
        /// Added attribute → the value existing rows get.
        public var added: [String: SnapshotValue] = [:]
        /// Attributes whose values are dropped.
        public var removed: [String] = []

        /// Creates an empty set of changes.
        public init() {}

        /// Whether rows are untouched.
        public var isEmpty: Bool { renamed.isEmpty && added.isEmpty && removed.isEmpty }
    }

    /// The changes per entity name (the new name).
    public var entities: [String: EntityChanges] = [:]
    /// Entities removed from the schema (they held no rows).
    public var removedEntities: [String] = []

    /// Creates an upgrade that changes nothing.
    public init() {}

    /// Whether no row changes and no entity goes.
    public var isEmpty: Bool { entities.values.allSatisfy(\.isEmpty) && removedEntities.isEmpty }

    /// Upgrades one row's values in place.
    public func upgrade(_ values: inout [String: SnapshotValue], entity: String) {
        guard let changes = entities[entity], !changes.isEmpty else { return }
        for (old, new) in changes.renamed {
            if let value = values.removeValue(forKey: old), values[new] == nil { values[new] = value }
        }
        for name in changes.removed { values.removeValue(forKey: name) }
        for (name, value) in changes.added where values[name] == nil { values[name] = value }
    }

    /// A row, upgraded.
    public func upgrade(_ snapshot: DataStoreSnapshot) -> DataStoreSnapshot {
        var values = snapshot.values
        upgrade(&values, entity: snapshot.persistentIdentifier.entityName)
        return DataStoreSnapshot(persistentIdentifier: snapshot.persistentIdentifier, values: values)
    }

    /// Compares the schema a store recorded with the one it is opened with, and returns the upgrade that takes
    /// the stored rows from one to the other.
    ///
    /// - Parameters:
    ///   - stored: The schema the store's files hold.
    ///   - target: The schema the store is being opened with.
    ///   - store: The store's identifier, for errors.
    ///   - rows: The stored rows of an entity (by its stored name); called only when a check needs the data
    ///     (an added unique constraint, a removed entity).
    /// - Throws: `DataStoreError/incompatibleSchema(store:entity:attribute:reason:)` naming the first unsafe
    ///   difference.
    public static func between(
        stored: Schema, target: Schema, store: String, rows: (String) throws -> [DataStoreSnapshot]
    ) throws -> SchemaUpgrade {
        if let storedVersion = stored.version, let targetVersion = target.version,
            targetVersion < storedVersion
        {
            throw DataStoreError.unknownDataStoreSchema(
                store: store,
                reason:
                    "it is at schema version \(storedVersion), newer than \(targetVersion): a newer version of the "
                    + "app wrote it, and opening it with older models would drop what they do not know")
        }
        // Dropping stored values needs the app's word: a target version newer than the stored one.
        let declaresNewVersion =
            target.version.map { new in stored.version.map { $0 < new } ?? true } ?? false
        var upgrade = SchemaUpgrade()
        for entity in target.entities {
            guard let old = stored.entity(named: entity.name) else { continue }  // a new entity
            let changes = try changes(from: old, to: entity, store: store)
            if !declaresNewVersion, !changes.removed.isEmpty {
                try checkNothingDropped(changes.removed, of: old.name, store: store, rows: try rows(old.name))
            }
            upgrade.entities[entity.name] = changes
            try checkNewUniqueness(
                from: old, to: entity, changes: changes, store: store,
                rows: { try rows(old.name).map { upgrade.upgrade($0) } })
        }
        for old in stored.entities where target.entity(named: old.name) == nil {
            let count = try rows(old.name).count
            guard count == 0 else {
                throw DataStoreError.incompatibleSchema(
                    store: store, entity: old.name, attribute: nil,
                    reason:
                        "the entity was removed from the schema but the store holds \(count) of its models")
            }
            upgrade.removedEntities.append(old.name)
        }
        return upgrade
    }

    /// Throws when a stored row holds a value of an attribute the target schema lacks.
    private static func checkNothingDropped(
        _ removed: [String], of entity: String, store: String, rows: [DataStoreSnapshot]
    ) throws {
        for name in removed.sorted() {
            let holders = rows.filter { ($0.values[name] ?? .null) != .null }.count
            guard holders > 0 else { continue }
            throw DataStoreError.incompatibleSchema(
                store: store, entity: entity, attribute: name,
                reason:
                    "the store holds values of '\(name)' in \(holders) model(s) and the schema opening it lacks it: "
                    + "a newer build of the app may have added it, and opening would drop them. To remove the "
                    + "attribute, open the store with a schema that declares a newer version (a VersionedSchema, "
                    + "or a migration plan)")
        }
    }

    /// The attribute-level changes of one entity; throws on a change of value kind.
    private static func changes(from old: Schema.Entity, to new: Schema.Entity, store: String) throws
        -> EntityChanges
    {
        var changes = EntityChanges()
        var kept: Set<String> = []
        for attribute in new.attributes {
            let source: Schema.Attribute
            if let same = old.attribute(named: attribute.name) {
                source = same
            } else if let original = attribute.originalName, let renamed = old.attribute(named: original),
                new.attribute(named: original) == nil
            {
                source = renamed
                changes.renamed[original] = attribute.name
            } else {
                changes.added[attribute.name] = attribute.defaultValue ?? .null
                continue
            }
            kept.insert(source.name)
            guard attribute.acceptsValues(ofKind: source.valueKind) else {
                throw DataStoreError.incompatibleSchema(
                    store: store, entity: new.name, attribute: attribute.name,
                    reason:
                        "the store holds \(source.valueKind ?? "any") values and the schema declares "
                        + "\(attribute.valueKind ?? "any"); a change of type needs a custom migration stage")
            }
        }
        changes.removed = old.attributes.map(\.name).filter { !kept.contains($0) }
        return changes
    }

    /// Throws when a unique constraint the stored schema did not have finds two rows with the same values.
    private static func checkNewUniqueness(
        from old: Schema.Entity, to new: Schema.Entity, changes: EntityChanges, store: String,
        rows: () throws -> [DataStoreSnapshot]
    ) throws {
        let storedConstraints = Set(
            old.uniqueConstraints.map { set in Set(set.map { changes.renamed[$0] ?? $0 }) })
        let added = new.uniqueConstraints.filter { !storedConstraints.contains(Set($0)) }
        guard !added.isEmpty else { return }
        let upgraded = try rows()
        for constraint in added {
            var seen: Set<[SnapshotValue]> = []
            for row in upgraded {
                let key = constraint.map { row.values[$0] ?? .null }
                guard seen.insert(key).inserted else {
                    let shown = key.map(\.userDescription).joined(separator: ", ")
                    throw DataStoreError.incompatibleSchema(
                        store: store, entity: new.name, attribute: constraint.joined(separator: ", "),
                        reason:
                            "adding .unique, but two stored models share the value \(shown); remove the duplicates "
                            + "in a custom migration stage first")
                }
            }
        }
    }
}
