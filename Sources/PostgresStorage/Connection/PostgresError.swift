#if PostgreSQL
    import CLibPQ

    /// An error PostgreSQL or libpq reported: the `underlyingError` of the ``DataStoreError`` a
    /// ``PostgresDataStore`` throws, so that code can match the server's SQLSTATE.
    ///
    /// ```swift
    /// catch let error as DataStoreError {
    ///     if let postgres = error.underlyingError as? PostgresError, postgres.isConnectionFailure { retry() }
    /// }
    /// ```
    public struct PostgresError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The five-character SQLSTATE (`23505`, `08006`, …), or `nil` when libpq failed before the server
        /// answered.
        public var sqlState: String?
        /// The server's or libpq's message.
        public var message: String

        /// Creates an error.
        public init(sqlState: String?, message: String) {
            self.sqlState = sqlState
            self.message = message
        }

        /// Reads the SQLSTATE and message of a failed result.
        init(result: OpaquePointer, connection: OpaquePointer) {
            let field = PQresultErrorField(result, Int32(UInt8(ascii: "C")))
            let primary = PQresultErrorField(result, Int32(UInt8(ascii: "M")))
            sqlState = field.map { String(cString: $0) }
            message =
                primary.map { String(cString: $0) }
                ?? String(cString: PQerrorMessage(connection)).trimmingWhitespace
        }

        /// Whether the connection failed or the server went away (SQLSTATE class 08, or 57P0x: the server
        /// is shutting down or terminated the session), rather than the statement being refused.
        public var isConnectionFailure: Bool {
            guard let sqlState else { return true }
            return sqlState.hasPrefix("08") || sqlState.hasPrefix("57P")
        }

        /// Whether the server gave up on the transaction to avoid a deadlock or a serialization anomaly, so
        /// that running it again may succeed.
        public var isTransient: Bool { sqlState == "40001" || sqlState == "40P01" }

        /// `SQLSTATE 23505: duplicate key value …`.
        public var description: String { "SQLSTATE \(sqlState ?? "none"): \(message)" }
    }

    extension String {
        var trimmingWhitespace: String {
            var text = Substring(self)
            while let last = text.last, last.isWhitespace { text.removeLast() }
            while let first = text.first, first.isWhitespace { text.removeFirst() }
            return String(text)
        }
    }
#endif
