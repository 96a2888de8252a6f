#if PostgreSQL
    @_spi(DataStoreInternals) import DataStoreCore
    import Foundation
    import Synchronization

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
            let (recorded, generation) = try store.withConnection("open") {
                try SchemaRecord(store: store, connection: $0).read()
            }
            guard let target = store.configuration.schema, SchemaRecord.differs(recorded, from: target) else {
                store.enforced.withLock { $0.generation = generation }
                return
            }
            let moved = try store.withTransaction("record the schema") { connection in
                _ = try store.lockState(connection)
                return try SchemaRecord(store: store, connection: connection).move(to: target)
            }
            store.enforced.withLock { $0.generation = moved }
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
    }
#endif
