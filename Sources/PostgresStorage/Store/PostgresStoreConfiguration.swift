#if PostgreSQL
    public import DataStoreCore

    /// Describes a ``PostgresDataStore``: the server to connect to, where its tables live, and how much history
    /// to keep.
    ///
    /// ```swift
    /// let store = try PostgresDataStore(
    ///     .init(name: "trips", schema: Schema([Trip.self]), connectionString: "postgresql://app@db.local/trips"))
    /// ```
    public struct PostgresStoreConfiguration: DataStoreConfiguration {
        /// The store opened from this configuration.
        public typealias Store = PostgresDataStore

        /// The store's name and identifier. Several stores share one set of tables, told apart by name.
        public var name: String
        /// The schema; a model container fills it in.
        public var schema: Schema?
        /// A libpq connection string: a URI (`postgresql://user:password@host:5432/database`) or key/value
        /// pairs (`host=/tmp port=5432 dbname=app`). Everything libpq reads (`PGPASSWORD`, `~/.pgpass`,
        /// `sslmode`) works as it does for `psql`.
        public var connectionString: String
        /// The PostgreSQL schema (namespace) that holds the store's tables: lowercase letters, digits and
        /// underscores, starting with a letter or underscore. Created on first open.
        public var databaseSchema: String
        /// The most transactions to retain; older ones are deleted in the save that passes the limit,
        /// expiring their tokens. `nil` keeps all history until `deleteHistory`.
        public var maximumHistoryCount: Int?
        /// The most idle connections the store keeps open for reuse.
        public var maximumIdleConnections: Int
        /// How many of the newest history changes an instance keeps decoded (its own saves and what it read),
        /// so that a read of the tail fetches only the rows' positions; tests set 0 to decode every row.
        var recentHistoryChanges = 2_048

        /// Creates a configuration.
        public init(
            name: String, schema: Schema? = nil, connectionString: String,
            databaseSchema: String = "datastore",
            maximumHistoryCount: Int? = nil, maximumIdleConnections: Int = 8
        ) {
            self.name = name
            self.schema = schema
            self.connectionString = connectionString
            self.databaseSchema = databaseSchema
            self.maximumHistoryCount = maximumHistoryCount
            self.maximumIdleConnections = maximumIdleConnections
        }
    }
#endif
