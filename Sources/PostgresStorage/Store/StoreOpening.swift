#if PostgreSQL
    import DataStoreCore
    import Foundation

    /// What opening a ``PostgresDataStore`` does, in one transaction: create the tables if they are missing,
    /// refuse tables a newer format wrote, register the store with a fresh epoch, and record its schema or
    /// migrate the rows to it (a lightweight migration, as ``SchemaUpgrade`` allows without a plan).
    struct StoreOpening {
        let store: PostgresDataStore

        func run() throws {
            let tables = store.tables
            try store.withTransaction("open") { connection in
                try connection.executeScript(tables.createFormatTable)
                let found = try connection.execute("SELECT version FROM \(tables.format)").scalar.flatMap {
                    Int($0)
                }
                guard let found, found <= StoreTables.formatVersion else {
                    throw DataStoreError.unsupportedFormatVersion(
                        path: "\(store.endpoint) schema \(tables.namespace)", found: found ?? -1,
                        supported: StoreTables.formatVersion)
                }
                try connection.executeScript(tables.createTables)
                try connection.execute(
                    "INSERT INTO \(tables.stores) (name, epoch) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
                    [store.identifier, UUID().uuidString])
                _ = try store.lockState(connection)
                if let target = store.configuration.schema {
                    try recordSchema(target, connection: connection)
                }
            }
        }

        /// Records `target`, migrating the rows first when a different schema was recorded.
        private func recordSchema(_ target: Schema, connection: PostgresConnection) throws {
            let tables = store.tables
            let recorded = try connection.execute(
                "SELECT schema_record FROM \(tables.stores) WHERE name = $1", [store.identifier]
            ).scalar
            let stored = try recorded.map { try JSONDecoder().decode(Schema.self, from: Data($0.utf8)) }
            guard stored != target else { return }
            if let stored {
                let source = PostgresRowSource(
                    connection: connection, tables: tables, store: store.identifier,
                    failure: store.failure("open"))
                let upgrade = try SchemaUpgrade.between(
                    stored: stored, target: target, store: store.identifier,
                    rows: { entity in try source.rows(of: entity) })
                if !upgrade.isEmpty {
                    try migrateRows(upgrade, target: target, source: source, connection: connection)
                }
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            try connection.execute(
                "UPDATE \(tables.stores) SET schema_record = $2 WHERE name = $1",
                [store.identifier, String(decoding: try encoder.encode(target), as: UTF8.self)])
        }

        /// Rewrites every row of the entities the upgrade touches, and their unique values.
        private func migrateRows(
            _ upgrade: SchemaUpgrade, target: Schema, source: PostgresRowSource,
            connection: PostgresConnection
        ) throws {
            let writer = RowWriter(
                connection: connection, tables: store.tables, store: store.identifier, schema: target)
            for (entity, changes) in upgrade.entities where !changes.isEmpty {
                let rows = try source.rows(of: entity).map { upgrade.upgrade($0) }
                try writer.replaceUniqueValues(of: rows.map(\.persistentIdentifier), with: rows)
                try writer.upsert(rows)
            }
            for entity in upgrade.removedEntities {
                try connection.execute(
                    "DELETE FROM \(store.tables.models) WHERE store = $1 AND entity = $2",
                    [store.identifier, entity])
            }
        }
    }
#endif
