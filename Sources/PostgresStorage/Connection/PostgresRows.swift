#if PostgreSQL
    import CLibPQ

    /// The rows a statement returned, copied out of libpq's result as text (`nil` for SQL `NULL`).
    struct PostgresRows: Sendable {
        /// The rows, each a value per column.
        let rows: [[String?]]
        /// The number of rows an `INSERT`, `UPDATE` or `DELETE` touched.
        let affectedRows: Int

        /// Copies `result` and frees it.
        init(_ result: OpaquePointer) {
            defer { PQclear(result) }
            let count = Int(PQntuples(result))
            let columns = Int(PQnfields(result))
            var rows: [[String?]] = []
            rows.reserveCapacity(count)
            for row in 0..<count {
                var values: [String?] = []
                values.reserveCapacity(columns)
                for column in 0..<columns {
                    if PQgetisnull(result, Int32(row), Int32(column)) == 1 {
                        values.append(nil)
                    } else {
                        values.append(String(cString: PQgetvalue(result, Int32(row), Int32(column))))
                    }
                }
                rows.append(values)
            }
            self.rows = rows
            affectedRows = Int(String(cString: PQcmdTuples(result))) ?? 0
        }

        /// Rows taken from another result.
        init(rows: [[String?]], affectedRows: Int = 0) {
            self.rows = rows
            self.affectedRows = affectedRows
        }

        /// The first column of the first row, or `nil`.
        var scalar: String? { rows.first?.first ?? nil }
    }
#endif
