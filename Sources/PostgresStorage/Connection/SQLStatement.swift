#if PostgreSQL
    /// One statement and its text parameters (`nil` is SQL `NULL`), for ``PostgresConnection/pipeline(_:)``.
    struct SQLStatement: Sendable {
        var sql: String
        var parameters: [String?]
        /// Whether the connection prepares the statement once and reuses its plan: for the few fixed statements
        /// every save or history fetch runs, whose planning otherwise costs more than their execution. The plan
        /// is made once, often while the tables are new and look ten pages long to the planner, and kept: a
        /// prepared lookup by a list of keys must probe an index per key whatever the table's size
        /// (``StoreTables/rows(of:byUnique:in:columns:)``), and a statement that cannot be written so (a `DELETE`
        /// by a list of keys) is not prepared (`PostgresSaveCostTests`).
        var isReusable: Bool

        init(_ sql: String, _ parameters: [String?] = [], reusable: Bool = false) {
            self.sql = sql
            self.parameters = parameters
            isReusable = reusable
        }
    }
#endif
