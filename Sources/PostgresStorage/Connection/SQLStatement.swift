#if PostgreSQL
    /// One statement and its text parameters (`nil` is SQL `NULL`), for ``PostgresConnection/pipeline(_:)``.
    struct SQLStatement: Sendable {
        var sql: String
        var parameters: [String?]
        /// Whether the connection prepares the statement once and reuses its plan: for the few fixed statements
        /// every save or history fetch runs, whose planning otherwise costs more than their execution. Not for
        /// lookups by a list of keys (`= ANY($n)`): PostgreSQL's generic plan for those filters the rows of the
        /// whole entity instead of seeking each key (`PostgresSaveCostTests`).
        var isReusable: Bool

        init(_ sql: String, _ parameters: [String?] = [], reusable: Bool = false) {
            self.sql = sql
            self.parameters = parameters
            isReusable = reusable
        }
    }
#endif
