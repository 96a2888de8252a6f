#if PostgreSQL
    /// One statement and its text parameters (`nil` is SQL `NULL`), for ``PostgresConnection/pipeline(_:)``.
    struct SQLStatement: Sendable {
        var sql: String
        var parameters: [String?]

        init(_ sql: String, _ parameters: [String?] = []) {
            self.sql = sql
            self.parameters = parameters
        }
    }
#endif
