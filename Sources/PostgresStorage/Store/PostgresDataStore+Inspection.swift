#if PostgreSQL
    import DataStoreCore
    public import DataStoreKit

    extension PostgresDataStore {
        /// What `datastore info` prints: models per entity, history counts, the oldest usable and the newest token,
        /// read in one `REPEATABLE READ` transaction.
        public func inspect() throws -> StoreInspection {
            try withTransaction("inspect", isolation: "REPEATABLE READ READ ONLY") { connection in
                let state = try readState(connection)
                var counts: [String: Int] = [:]
                for row in try connection.execute(
                    "SELECT entity, count(*) FROM \(tables.models) WHERE store = $1 GROUP BY entity",
                    [identifier]
                ).rows {
                    if let entity = row[0], let count = row[1].flatMap({ Int($0) }) { counts[entity] = count }
                }
                let history = try connection.execute(
                    """
                    SELECT count(*), coalesce(sum(json_array_length(changes::json)), 0) FROM \(tables.history)
                    WHERE store = $1
                    """, [identifier]
                ).rows.first
                func json(_ sequence: Int64) throws -> String {
                    try HistoryTokenCoding.jsonString(
                        PostgresHistoryToken(
                            storeIdentifier: identifier, epoch: state.epoch, sequence: sequence))
                }
                return StoreInspection(
                    backend: "postgres", formatVersion: StoreTables.formatVersion,
                    storeIdentifier: identifier,
                    epoch: state.epoch, countedThings: "models", countsByEntity: counts,
                    details: [
                        .init("server", endpoint), .init("database schema", tables.namespace),
                        .init("oldest valid sequence", "\(state.oldestValidSequence)"),
                    ],
                    transactionCount: history?[0].flatMap { Int($0) } ?? 0,
                    changeCount: history?[1].flatMap { Int($0) } ?? 0,
                    oldestUsableToken: try json(state.oldestValidSequence),
                    newestToken: try json(state.latestSequence))
            }
        }

        /// The names of the stores whose tables live in `databaseSchema` on the server of `connectionString`,
        /// sorted: what `datastore` lists when a connection string names no store.
        public static func storeNames(connectionString: String, databaseSchema: String = "datastore") throws
            -> [String]
        {
            let tables = try StoreTables(namespace: databaseSchema)
            let names: Result<[String], PostgresError> = Result { () throws(PostgresError) in
                try listStores(connectionString: connectionString, tables: tables)
            }
            switch names {
            case .success(let names): return names
            case .failure(let error):
                throw DataStoreError(
                    .storageUnavailable, path: "PostgreSQL server",
                    reason: "cannot list stores: \(error.message)",
                    underlyingError: error)
            }
        }

        private static func listStores(connectionString: String, tables: StoreTables) throws(PostgresError)
            -> [String]
        {
            let connection = try PostgresConnection(connectionString: connectionString)
            guard try connection.execute("SELECT to_regclass($1) IS NOT NULL", [tables.stores]).scalar == "t"
            else {
                return []
            }
            return try connection.execute("SELECT name FROM \(tables.stores) ORDER BY name COLLATE \"C\"")
                .rows
                .compactMap { $0[0] }
        }
    }
#endif
