#if PostgreSQL
    /// One statement and its text parameters (`nil` is SQL `NULL`), for ``PostgresConnection/pipeline(_:)``.
    struct SQLStatement: Sendable {
        var sql: String
        var parameters: [String?]
        /// Whether the connection prepares the statement once and reuses its plan: for the few fixed statements
        /// every save or history fetch runs, whose planning otherwise costs more than their execution. A lookup
        /// by a list of keys must use a single-column unique key (`row_key = ANY($1)`): a list on a later column
        /// of an index got a generic plan that filtered every row of the entity (`PostgresSaveCostTests`).
        var isReusable: Bool

        init(_ sql: String, _ parameters: [String?] = [], reusable: Bool = false) {
            self.sql = sql
            self.parameters = parameters
            isReusable = reusable
        }
    }
#endif
