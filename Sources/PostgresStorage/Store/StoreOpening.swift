#if PostgreSQL
    import DataStoreCore
    import Foundation

    /// What opening a ``PostgresDataStore`` does: create the tables if they are missing (in one transaction),
    /// refuse tables a newer format wrote, register the store with a fresh epoch, and record its schema or
    /// migrate the rows to it (a lightweight migration, as ``SchemaUpgrade`` allows without a plan, in one
    /// transaction holding the store's row lock).
    struct StoreOpening {
        let store: PostgresDataStore

        func run() throws {
            try createTablesIfMissing()
            let tables = store.tables
            // Registering the store and reading its schema take no lock that a save holds: opening never waits
            // for writers, nor they for it, unless the schema must be recorded or migrated.
            _ = try store.withConnection("open") { connection in
                try connection.execute(
                    "INSERT INTO \(tables.stores) (name, epoch) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
                    [store.identifier, UUID().uuidString])
            }
            guard let target = store.configuration.schema else { return }
            guard try recordedSchema(lock: nil) != target else { return }
            try store.withTransaction("record the schema") { connection in
                _ = try store.lockState(connection)
                try recordSchema(target, connection: connection)
            }
        }

        /// Checks the format version; creates the schema and tables in one transaction when they are missing.
        /// DDL takes locks that saves conflict with, so it runs only when something is missing.
        private func createTablesIfMissing() throws {
            let tables = store.tables
            let found = try store.withConnection("open") { connection -> Int? in
                let exists = try connection.execute(
                    "SELECT to_regclass($1) IS NOT NULL AND to_regclass($2) IS NOT NULL",
                    [tables.format, tables.history]
                ).scalar
                guard exists == "t" else { return nil }
                return try connection.execute("SELECT version FROM \(tables.format)").scalar.flatMap {
                    Int($0)
                }
            }
            if let found {
                try check(found)
                return
            }
            try store.withTransaction("create the tables") { connection in
                try connection.executeScript(tables.createFormatTable)
                try check(
                    try connection.execute("SELECT version FROM \(tables.format)").scalar.flatMap { Int($0) })
                try connection.executeScript(tables.createTables)
            }
        }

        private func check(_ version: Int?) throws {
            guard let version, version <= StoreTables.formatVersion else {
                throw DataStoreError.unsupportedFormatVersion(
                    path: "\(store.endpoint) schema \(store.tables.namespace)", found: version ?? -1,
                    supported: StoreTables.formatVersion)
            }
        }

        private func recordedSchema(lock connection: PostgresConnection?) throws -> Schema? {
            let read = { (connection: PostgresConnection) in
                try connection.execute(
                    "SELECT schema_record FROM \(store.tables.stores) WHERE name = $1", [store.identifier]
                ).scalar
            }
            let text = try connection.map(read) ?? store.withConnection("open", read)
            return try text.map { try JSONDecoder().decode(Schema.self, from: Data($0.utf8)) }
        }

        /// Records `target`, migrating the rows first when a different schema was recorded.
        private func recordSchema(_ target: Schema, connection: PostgresConnection) throws {
            let tables = store.tables
            let stored = try recordedSchema(lock: connection)
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
