public import DataStoreCore

extension SnapshotTable {
    /// What moving a table to another schema produces: the plan of the changes that came with the migration,
    /// the upgrade, and the table afterwards. Nothing is committed until the store persists and adopts it.
    public struct Migration: Sendable {
        /// The changes the migration's request made, planned against the old schema (`nil` without a request,
        /// or when it changed nothing).
        public var plan: SavePlan?
        /// The lightweight upgrade from the old schema to the new one.
        public var upgrade: SchemaUpgrade
        /// The rows after the changes and the upgrade, indexed under the new schema.
        public var table: SnapshotTable
    }

    /// Plans `request` against this table, applies it to a copy, and checks and applies the upgrade from
    /// `stored` to `target` on the result: the one migration step the in-memory and file stores share.
    ///
    /// - Throws: The save errors of `request`, and
    ///   `DataStoreError/incompatibleSchema(store:entity:attribute:reason:)` when the rows after the changes
    ///   cannot take `target`.
    public func migration(
        from stored: Schema, to target: Schema, applying request: DataStoreSaveChangesRequest?
    )
        throws -> Migration
    {
        var changed = self
        var plan: SavePlan?
        if let request {
            let planned = try self.plan(request)
            if !planned.changes.isEmpty {
                changed.apply(planned)
                plan = planned
            }
        }
        let upgrade = try SchemaUpgrade.between(
            stored: stored, target: target, store: storeIdentifier, rows: { Array(changed.rows(of: $0)) })
        return Migration(plan: plan, upgrade: upgrade, table: changed.upgraded(upgrade, schema: target))
    }

    /// A table holding every row upgraded, indexed under `schema`; rows of removed entities are dropped.
    public func upgraded(_ upgrade: SchemaUpgrade, schema: Schema?) -> SnapshotTable {
        var table = SnapshotTable(storeIdentifier: storeIdentifier, schema: schema)
        let removed = Set(upgrade.removedEntities)
        for (entity, rows) in rowsByEntity where !removed.contains(entity) {
            for row in rows.values {
                let upgraded = upgrade.upgrade(row)
                table.apply(
                    PlannedChange(
                        kind: .insert, identifier: upgraded.persistentIdentifier, values: upgraded.values))
            }
        }
        return table
    }
}
