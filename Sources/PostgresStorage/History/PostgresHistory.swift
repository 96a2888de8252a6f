#if PostgreSQL
    public import DataStoreCore
    import DataStoreKit

    /// The kind of a ``PostgresDataStore``'s history: tokens read `"v2:postgres:…"`.
    public enum PostgresHistory: HistoryTokenKind {
        /// `postgres`.
        public static let name = "postgres"
    }

    /// A position in a ``PostgresDataStore``'s history.
    public typealias PostgresHistoryToken = GenericHistoryToken<PostgresHistory>
    /// One `save` of a ``PostgresDataStore``.
    public typealias PostgresHistoryTransaction = GenericHistoryTransaction<PostgresHistory>
    /// One change in a ``PostgresDataStore`` transaction.
    public typealias PostgresHistoryChange = GenericHistoryChange<PostgresHistory>
#endif
