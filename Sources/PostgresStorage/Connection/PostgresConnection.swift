#if PostgreSQL
    import CLibPQ
    import DataStoreCore
    import Foundation

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// One libpq connection, used by one caller at a time (the ``ConnectionPool`` hands it out).
    ///
    /// Every statement is sent with `PQexecParams` in text format, so values never travel inside SQL text. A
    /// failure throws ``PostgresError``; ``isBroken`` then says whether the connection itself is gone (the
    /// pool drops it and the next call connects anew).
    final class PostgresConnection: @unchecked Sendable {
        // `@unchecked`: the pool hands a connection to one caller at a time; libpq connections are not shared.

        private let handle: OpaquePointer
        /// Where the connection goes, without a password, for messages.
        let endpoint: String

        /// Connects, or throws ``PostgresError`` with libpq's message (wrong host, refused, authentication).
        init(connectionString: String) throws(PostgresError) {
            guard let handle = PQconnectdb(connectionString) else {
                throw PostgresError(sqlState: nil, message: "libpq could not allocate a connection")
            }
            self.handle = handle
            endpoint = Self.describe(handle)
            guard PQstatus(handle) == CONNECTION_OK else {
                // `deinit` finishes the handle: every property is set, so it runs when this throws.
                let message = String(cString: PQerrorMessage(handle))
                throw PostgresError(sqlState: "08001", message: message.trimmingWhitespace)
            }
            // Notices (NOTICE: relation already exists, …) would go to standard error otherwise.
            PQsetNoticeProcessor(handle, { _, _ in }, nil)
        }

        deinit {
            PQfinish(handle)
        }

        /// Whether the server connection is lost: the pool discards the connection instead of reusing it.
        var isBroken: Bool { PQstatus(handle) != CONNECTION_OK }

        /// Whether the connection is usable and outside any transaction, so the next caller starts clean.
        var isIdle: Bool { !isBroken && PQtransactionStatus(handle) == PQTRANS_IDLE }

        /// The socket, for waiting on notifications.
        var socket: Int32 { PQsocket(handle) }

        /// Runs one statement with text parameters (`nil` is SQL `NULL`) and returns its rows.
        @discardableResult
        func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> PostgresRows {
            try execute(SQLStatement(sql, parameters))
        }

        /// Runs one statement (prepared once per connection when it is reusable) and returns its rows.
        @discardableResult
        func execute(_ statement: SQLStatement) throws(PostgresError) -> PostgresRows {
            let name = statement.isReusable ? try prepared(statement.sql) : nil
            let result: OpaquePointer? = withParameterPointers(statement.parameters) { pointers in
                if let name {
                    PQexecPrepared(handle, name, Int32(pointers.count), pointers, nil, nil, 0)
                } else {
                    PQexecParams(handle, statement.sql, Int32(pointers.count), nil, pointers, nil, nil, 0)
                }
            }
            guard let result else {
                throw PostgresError(sqlState: nil, message: String(cString: PQerrorMessage(handle)))
            }
            switch PQresultStatus(result) {
            case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
                return PostgresRows(result)
            default:
                let error = PostgresError(result: result, connection: handle)
                PQclear(result)
                throw error
            }
        }

        /// Runs `statements` in one round trip (libpq's pipeline mode) and returns their rows in order. After a
        /// failure the server skips the rest; the first error is thrown. Inside a transaction, that failure
        /// aborts it, as it would one statement at a time.
        func pipeline(_ statements: [SQLStatement]) throws(PostgresError) -> [PostgresRows] {
            guard !statements.isEmpty else { return [] }
            // Reusable statements are prepared before the pipeline starts (a round trip the first time only).
            var names: [String?] = []
            for statement in statements {
                names.append(statement.isReusable ? try prepared(statement.sql) : nil)
            }
            guard PQenterPipelineMode(handle) == 1 else {
                throw PostgresError(sqlState: nil, message: String(cString: PQerrorMessage(handle)))
            }
            defer { PQexitPipelineMode(handle) }
            for (statement, name) in zip(statements, names) {
                let sent = withParameterPointers(statement.parameters) { pointers in
                    if let name {
                        PQsendQueryPrepared(handle, name, Int32(pointers.count), pointers, nil, nil, 0)
                    } else {
                        PQsendQueryParams(
                            handle, statement.sql, Int32(pointers.count), nil, pointers, nil, nil, 0)
                    }
                }
                guard sent == 1 else {
                    throw PostgresError(sqlState: "08006", message: String(cString: PQerrorMessage(handle)))
                }
            }
            guard PQpipelineSync(handle) == 1 else {
                throw PostgresError(sqlState: "08006", message: String(cString: PQerrorMessage(handle)))
            }
            var rows: [PostgresRows] = []
            var failure: PostgresError?
            // Each statement's results end with a NULL; the pipeline ends with its sync result.
            for _ in statements {
                while let result = PQgetResult(handle) {
                    switch PQresultStatus(result) {
                    case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
                        rows.append(PostgresRows(result))
                    case PGRES_PIPELINE_ABORTED:
                        PQclear(result)
                    default:
                        if failure == nil { failure = PostgresError(result: result, connection: handle) }
                        PQclear(result)
                    }
                }
                if isBroken { break }
            }
            if !isBroken, let sync = PQgetResult(handle) { PQclear(sync) }
            if let failure { throw failure }
            guard !isBroken, rows.count == statements.count else {
                throw PostgresError(sqlState: "08006", message: String(cString: PQerrorMessage(handle)))
            }
            return rows
        }

        /// The names of the statements prepared on this connection, by SQL text.
        private var preparedNames: [String: String] = [:]

        /// The name of `sql` prepared on this connection; prepares it on first use. PostgreSQL then reuses a
        /// plan instead of planning each execution.
        private func prepared(_ sql: String) throws(PostgresError) -> String {
            if let name = preparedNames[sql] { return name }
            let name = "datastore_\(preparedNames.count)"
            guard let result = PQprepare(handle, name, sql, 0, nil) else {
                throw PostgresError(sqlState: nil, message: String(cString: PQerrorMessage(handle)))
            }
            defer { PQclear(result) }
            guard PQresultStatus(result) == PGRES_COMMAND_OK else {
                throw PostgresError(result: result, connection: handle)
            }
            preparedNames[sql] = name
            return name
        }

        /// Runs several statements without parameters in one round trip (`BEGIN; …`).
        func executeScript(_ sql: String) throws(PostgresError) {
            guard let result = PQexec(handle, sql) else {
                throw PostgresError(sqlState: nil, message: String(cString: PQerrorMessage(handle)))
            }
            defer { PQclear(result) }
            switch PQresultStatus(result) {
            case PGRES_COMMAND_OK, PGRES_TUPLES_OK: return
            default: throw PostgresError(result: result, connection: handle)
            }
        }

        /// Reads what the server sent and returns the notifications that arrived (`LISTEN`).
        func notifications() throws(PostgresError) -> [String] {
            guard PQconsumeInput(handle) == 1 else {
                throw PostgresError(sqlState: "08006", message: String(cString: PQerrorMessage(handle)))
            }
            var payloads: [String] = []
            while let notify = PQnotifies(handle) {
                payloads.append(String(cString: notify.pointee.extra))
                PQfreemem(notify)
            }
            return payloads
        }

        private static func describe(_ handle: OpaquePointer) -> String {
            let host = PQhost(handle).map { String(cString: $0) } ?? "?"
            let port = PQport(handle).map { String(cString: $0) } ?? "?"
            let database = PQdb(handle).map { String(cString: $0) } ?? "?"
            return "postgresql://\(host):\(port)/\(database)"
        }
    }

    /// Passes `parameters` to libpq as C strings that live for the call.
    private func withParameterPointers<R>(
        _ parameters: [String?], _ body: ([UnsafePointer<CChar>?]) -> R
    ) -> R {
        var storage: [UnsafeMutablePointer<CChar>?] = parameters.map { $0.map { strdup($0) } }
        defer { for pointer in storage { free(pointer) } }
        return storage.withUnsafeMutableBufferPointer { buffer in
            body(buffer.map { $0.map { UnsafePointer($0) } })
        }
    }
#endif
