#if PostgreSQL
    @_spi(DataStoreInternals) public import DataStoreCore
    import DataStoreKit
    import Foundation
    import Synchronization

    /// A store in a PostgreSQL database: models and history in tables that any number of processes and hosts
    /// share, through the system's libpq.
    ///
    /// Boundaries: one `save` is one SQL transaction that writes the models and one history row together, so
    /// a transaction is visible whole or not at all, and a crash or lost connection before `COMMIT` leaves
    /// nothing. One model instance is one change.
    ///
    /// **History positions never skip a commit.** A save locks its store's row in the `stores` table
    /// (`SELECT … FOR UPDATE`) before it plans, and takes the next sequence from that row. The next writer waits
    /// for the lock until the first has committed or rolled back, so sequence N+1 is assigned only after N is
    /// visible: a reader that has seen N+1 has seen everything before it. (A PostgreSQL `SEQUENCE` would not do:
    /// values are handed out at once and commit in any order, so "after my token" would skip a transaction that
    /// commits late.) The cost: saves to one store commit one at a time, each holding the lock for its round trips
    /// and its commit's WAL flush. Readers never take the lock.
    ///
    /// A save plans against the database's current rows (the models it names and the holders of its unique
    /// values, read inside the locked transaction), so unique upserts, delete rules and missing-model checks
    /// see every other writer's commits. Fetches run as one query; when ``FetchPushdown`` says the predicate,
    /// sort, offset and limit can all be answered exactly in SQL, no Swift evaluation runs.
    ///
    /// Errors: a server that cannot be reached, goes away or refuses a statement gives
    /// ``DataStoreError/storageUnavailable(path:reason:underlyingError:)`` with a ``PostgresError`` as its
    /// underlying error; the connection is dropped and the next call connects anew. A save whose connection
    /// is lost before `COMMIT` was acknowledged may or may not have committed (as with any database); one that
    /// returned has.
    public final class PostgresDataStore: DataStore, Sendable {
        /// The store's configuration type.
        public typealias Configuration = PostgresStoreConfiguration
        /// The store's token type.
        public typealias Token = PostgresHistoryToken

        /// The configuration the store was opened with.
        public let configuration: PostgresStoreConfiguration
        /// The store's identifier: the configuration's name.
        public let identifier: String
        /// The schema the store enforces (empty when opened without one); ``migrate(to:applying:)`` changes it.
        public var schema: Schema { enforced.withLock { $0.schema } ?? Schema(entities: []) }
        /// The schema saves are planned against, and the generation of the store's schema record it belongs to.
        let enforced: Lock<Enforced>
        let tables: StoreTables
        let pool: ConnectionPool
        /// `postgresql://host:port/database`, without credentials, for messages.
        let endpoint: String
        let counters = Lock(Counters())
        /// The newest transactions this instance wrote or read, decoded (see ``PostgresHistorySource``).
        let recentHistory: Lock<RecentHistory<PostgresHistoryTransaction>>
        private let beforeCommitHook = Lock<(@Sendable () -> Void)?>(nil)

        /// Runs inside every save's transaction after everything is written and before `COMMIT`: tests hold a
        /// transaction open with it, or cut the connection under it.
        package var beforeCommit: (@Sendable () -> Void)? {
            get { beforeCommitHook.withLock { $0 } }
            set { beforeCommitHook.withLock { $0 = newValue } }
        }

        struct Enforced {
            /// `nil`: any entity, without options.
            var schema: Schema?
            /// The `schema_generation` this instance read; another process's migration raises it.
            var generation: Int64 = 0
        }

        struct Counters {
            var modelsExamined = 0
            var fetchRequests = 0
            var history = HistoryQueryStatistics()
            var decodedHistoryRows = 0
        }

        /// Connects, creates the tables on first use, and registers the store.
        ///
        /// - Throws: ``DataStoreError/invalidConfiguration(reason:)`` for an empty name, a negative history
        ///   limit or a `databaseSchema` that is not a plain name; ``DataStoreError/storageUnavailable(path:reason:underlyingError:)``
        ///   when the server cannot be reached or refuses (the message is libpq's);
        ///   ``DataStoreError/unsupportedFormatVersion(path:found:supported:)`` when a newer version of this
        ///   package wrote the tables; ``DataStoreError/incompatibleSchema(store:entity:attribute:reason:)``
        ///   when the recorded schema cannot be migrated to the configuration's without a plan.
        public init(_ configuration: PostgresStoreConfiguration) throws {
            guard !configuration.name.isEmpty else {
                throw DataStoreError.invalidConfiguration(reason: "a store needs a non-empty name")
            }
            if let limit = configuration.maximumHistoryCount, limit < 1 {
                throw DataStoreError.invalidConfiguration(
                    reason: "maximumHistoryCount must be at least 1 (it was \(limit)); nil keeps all history")
            }
            try configuration.schema?.validateRelationships()
            self.configuration = configuration
            identifier = configuration.name
            enforced = Lock(Enforced(schema: configuration.schema))
            recentHistory = Lock(RecentHistory(changeLimit: configuration.recentHistoryChanges))
            tables = try StoreTables(namespace: configuration.databaseSchema)
            pool = ConnectionPool(
                connectionString: configuration.connectionString,
                maximumIdle: max(configuration.maximumIdleConnections, 1))
            let store = configuration.name
            do {
                endpoint = try pool.withConnection { $0.endpoint }
            } catch let error as PostgresError {
                throw DataStoreError(
                    .storageUnavailable, store: store, path: "PostgreSQL server",
                    reason: "cannot connect for store '\(store)': \(error.message)", underlyingError: error)
            }
            try StoreOpening(store: self).run()
        }

        /// Fetches the snapshots of one entity with one query; an exact pushdown needs no Swift evaluation.
        public func fetch<Model: PersistentModel>(_ request: DataStoreFetchRequest<Model>) throws
            -> DataStoreFetchResult
        {
            let snapshots = try withConnection("fetch \(Model.entityName)") { connection in
                try self.snapshots(matching: request.descriptor, on: connection, operation: "fetch")
            }
            return DataStoreFetchResult(snapshots: snapshots)
        }

        /// The snapshots `descriptor` selects, read on `connection` (inside a caller's transaction, if it
        /// began one): one query, finished in Swift when the pushdown is not exact (relationships in the
        /// predicate read related rows on the same connection).
        func snapshots<Model: PersistentModel>(
            matching descriptor: FetchDescriptor<Model>, on connection: PostgresConnection, operation: String
        ) throws -> [DataStoreSnapshot] {
            try OpaqueAttributeUse.check(descriptor, store: identifier)
            let query = SQLFetchQuery(descriptor, tables: tables, store: identifier, entity: Model.entityName)
            let rows = try connection.execute(query.sql, query.parameters).rows
            var snapshots: [DataStoreSnapshot] = []
            snapshots.reserveCapacity(rows.count)
            for row in rows {
                guard let key = row[0], let text = row[1] else { continue }
                let id = PersistentIdentifier(
                    storeIdentifier: identifier, entityName: Model.entityName, primaryKey: key)
                snapshots.append(try PostgresRowSource.snapshot(id, text: text, store: identifier))
            }
            counters.withLock {
                $0.modelsExamined += snapshots.count
                $0.fetchRequests += 1
            }
            if query.isExact { return snapshots }
            let related = PostgresRowSource(
                connection: connection, tables: tables, store: identifier, failure: failure(operation))
            return try SnapshotQuery.run(
                descriptor, over: snapshots, storeIdentifier: identifier, relatedRows: related)
        }

        /// Commits the request as one SQL transaction, or throws and changes nothing.
        public func save(_ request: DataStoreSaveChangesRequest) throws -> DataStoreSaveChangesResult<
            PostgresHistoryToken
        > {
            try withConnection("save") { connection in
                try SaveTransaction(store: self, connection: connection).commit(request)
            }
        }

        /// Deletes every model and all history of this store and draws a new epoch, so earlier tokens expire.
        public func erase() throws {
            try withTransaction("erase") { connection in
                _ = try lockState(connection)
                for table in [tables.models, tables.uniqueValues, tables.history] {
                    try connection.execute("DELETE FROM \(table) WHERE store = $1", [identifier])
                }
                try connection.execute(
                    """
                    UPDATE \(tables.stores) SET epoch = $2, latest_sequence = 0, oldest_valid_sequence = 0,
                        next_change_identifier = 1, last_timestamp = 0 WHERE name = $1
                    """, [identifier, UUID().uuidString])
                try notify(connection, sequence: 0)
            }
        }

        /// The token of the newest transaction, or a token at sequence 0 when there is none.
        public func currentToken() throws -> PostgresHistoryToken {
            let state = try withConnection("read the store's position") { try readState($0) }
            return PostgresHistoryToken(
                storeIdentifier: identifier, epoch: state.epoch, sequence: state.latestSequence)
        }

        /// The models fetches have examined since the store was opened: every row a query returned.
        public var modelsExamined: Int { counters.withLock { $0.modelsExamined } }

        /// The history rows this instance decoded since it was opened (rows its cache held are not decoded).
        package var historyRowsDecoded: Int { counters.withLock { $0.decodedHistoryRows } }

        /// The model fetches answered since the store was opened.
        package var fetchRequests: Int { counters.withLock { $0.fetchRequests } }

        // MARK: Connections and transactions

        /// Runs `body` with a pooled connection; a ``PostgresError`` becomes a ``DataStoreError`` naming
        /// `operation`.
        func withConnection<R>(_ operation: String, _ body: (PostgresConnection) throws -> R) throws -> R {
            do {
                return try pool.withConnection(body)
            } catch let error as PostgresError {
                throw failure(operation)(error)
            }
        }

        /// Runs `body` inside `BEGIN` … `COMMIT` on one connection; any error rolls back.
        func withTransaction<R>(
            _ operation: String, isolation: String = "READ COMMITTED",
            _ body: (PostgresConnection) throws -> R
        ) throws -> R {
            try withConnection(operation) { connection in
                try connection.execute("BEGIN ISOLATION LEVEL \(isolation)")
                do {
                    let result = try body(connection)
                    try connection.execute("COMMIT")
                    return result
                } catch {
                    if !connection.isBroken { _ = try? connection.execute("ROLLBACK") }
                    throw error
                }
            }
        }

        /// Like ``withTransaction(_:isolation:_:)``, with the store's row read (and with `lock`, locked) in the
        /// same round trip as `BEGIN`.
        func withStateTransaction<R>(
            _ operation: String, isolation: String = "READ COMMITTED", lock: Bool,
            _ body: (PostgresConnection, State) throws -> R
        ) throws -> R {
            try withConnection(operation) { connection in
                do {
                    let begun = try connection.pipeline([
                        SQLStatement("BEGIN ISOLATION LEVEL \(isolation)"), stateStatement(lock: lock),
                    ])
                    let result = try body(connection, try state(from: begun[1]))
                    try connection.execute("COMMIT")
                    return result
                } catch {
                    if !connection.isBroken { _ = try? connection.execute("ROLLBACK") }
                    throw error
                }
            }
        }

        /// Turns a server error during `operation` into the store's typed error.
        func failure(_ operation: String) -> (PostgresError) -> DataStoreError {
            { [identifier, endpoint] error in
                let lost =
                    error.isConnectionFailure
                    ? " (the connection to the server was lost; the next call connects again)" : ""
                return DataStoreError(
                    .storageUnavailable, store: identifier, path: endpoint,
                    reason: "\(operation) of store '\(identifier)' failed: \(error.message)\(lost)",
                    underlyingError: error)
            }
        }

        // MARK: The store's row

        /// The `stores` row: epoch and positions.
        struct State {
            var epoch: UUID
            var latestSequence: Int64
            var oldestValidSequence: Int64
            var nextChangeIdentifier: Int64
            var lastTimestamp: Double
            var schemaGeneration: Int64
        }

        /// Reads the store's row without locking it.
        func readState(_ connection: PostgresConnection) throws -> State {
            try state(connection, lock: false)
        }

        /// Reads and locks the store's row until the transaction ends: what orders writers.
        func lockState(_ connection: PostgresConnection) throws -> State {
            try state(connection, lock: true)
        }

        private func state(_ connection: PostgresConnection, lock: Bool) throws -> State {
            let statement = stateStatement(lock: lock)
            return try state(from: try connection.execute(statement))
        }

        /// The statement that reads (and with `lock`, locks) the store's row.
        func stateStatement(lock: Bool) -> SQLStatement {
            SQLStatement(
                """
                SELECT epoch, latest_sequence, oldest_valid_sequence, next_change_identifier, last_timestamp,
                    schema_generation
                FROM \(tables.stores) WHERE name = $1\(lock ? " FOR UPDATE" : "")
                """, [identifier], reusable: true)
        }

        /// The store's row, from what ``stateStatement(lock:)`` returned.
        func state(from rows: PostgresRows) throws -> State {
            guard let row = rows.rows.first, let epoch = row[0].flatMap(UUID.init(uuidString:)),
                let latest = row[1].flatMap({ Int64($0) }), let oldest = row[2].flatMap({ Int64($0) }),
                let next = row[3].flatMap({ Int64($0) }), let last = row[4].flatMap({ Double($0) }),
                let generation = row[5].flatMap({ Int64($0) })
            else {
                throw DataStoreError(
                    .storageUnavailable, store: identifier, path: endpoint,
                    reason:
                        "store '\(identifier)' has no row in \(tables.stores): its tables were dropped or changed "
                        + "by another program while it was open")
            }
            return State(
                epoch: epoch, latestSequence: latest, oldestValidSequence: oldest, nextChangeIdentifier: next,
                lastTimestamp: last, schemaGeneration: generation)
        }

        /// Throws `schemaChanged` when another instance migrated the store since this one read its schema: rows
        /// are in a layout this instance would misread.
        func checkSchemaGeneration(_ state: State) throws {
            let known = enforced.withLock { $0.generation }
            guard state.schemaGeneration == known else {
                throw DataStoreError.schemaChanged(
                    store: identifier,
                    reason:
                        "another connection migrated the store to a different schema (generation \(state.schemaGeneration), "
                        + "this instance read \(known)); open the store again")
            }
        }

        /// Wakes the store's `historyUpdates` readers when the transaction commits.
        func notify(_ connection: PostgresConnection, sequence: Int64) throws {
            try connection.execute(notifyStatement(sequence: sequence))
        }

        /// The `NOTIFY` of a transaction, for a pipeline.
        func notifyStatement(sequence: Int64) -> SQLStatement {
            SQLStatement(
                "SELECT pg_notify($1, $2)", [tables.channel(for: identifier), String(sequence)],
                reusable: true)
        }
    }
#endif
