#if PostgreSQL
    import DataStoreCore
    import DataStoreKit
    import Foundation

    /// The schema a store's rows are written in, kept in its `stores` row with a generation that rises with
    /// every change of layout, so that instances opened before a migration notice it (`schemaChanged`).
    struct SchemaRecord {
        let store: PostgresDataStore
        let connection: PostgresConnection

        /// The recorded schema (`nil` before the first open with one) and its generation.
        func read() throws -> (schema: Schema?, generation: Int64) {
            let row = try connection.execute(
                "SELECT schema_record, schema_generation FROM \(store.tables.stores) WHERE name = $1",
                [store.identifier]
            ).rows.first
            let schema = try row?[0].map { try JSONDecoder().decode(Schema.self, from: Data($0.utf8)) }
            return (schema, row?[1].flatMap { Int64($0) } ?? 0)
        }

        /// Whether opening under `target` must record it: there is no record, the layout differs, or `target`
        /// names a version the record does not have (a schema without a version keeps the recorded one).
        static func differs(_ recorded: Schema?, from target: Schema) -> Bool {
            guard let recorded else { return true }
            return recorded.storageLayout != target.storageLayout
                || (target.version != nil && target.version != recorded.version)
        }

        /// Moves the rows from the recorded schema to `target` (the lightweight upgrade ``SchemaUpgrade``
        /// allows without a plan) and records `target`; returns the generation recorded. Call it inside a
        /// transaction holding the store's row lock: it throws `incompatibleSchema`, and the transaction rolls
        /// back, when the rows cannot take `target`.
        func move(to target: Schema) throws -> Int64 {
            let (stored, generation) = try read()
            guard stored != target else { return generation }
            var layoutChanged = false
            if let stored {
                let source = PostgresRowSource(
                    connection: connection, tables: store.tables, store: store.identifier,
                    failure: store.failure("migrate"))
                let upgrade = try SchemaUpgrade.between(
                    stored: stored, target: target, store: store.identifier,
                    rows: { entity in try source.rows(of: entity) })
                if !upgrade.isEmpty { try migrateRows(upgrade, target: target, source: source) }
                layoutChanged = stored.storageLayout != target.storageLayout
            }
            let next = layoutChanged ? generation + 1 : generation
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            try connection.execute(
                "UPDATE \(store.tables.stores) SET schema_record = $2, schema_generation = $3 WHERE name = $1",
                [store.identifier, String(decoding: try encoder.encode(target), as: UTF8.self), String(next)])
            return next
        }

        /// Rewrites every row of the entities the upgrade touches, and their unique values.
        private func migrateRows(_ upgrade: SchemaUpgrade, target: Schema, source: PostgresRowSource) throws {
            let writer = RowWriter(tables: store.tables, store: store.identifier, schema: target)
            for (entity, changes) in upgrade.entities where !changes.isEmpty {
                let stored = try source.rows(of: entity)
                try writer.write(
                    upserting: stored.map { upgrade.upgrade($0) }, deleting: [], replacing: stored,
                    on: connection)
            }
            for entity in upgrade.removedEntities {
                try connection.execute(
                    "DELETE FROM \(store.tables.models) WHERE store = $1 AND entity = $2",
                    [store.identifier, entity])
            }
        }
    }
#endif
