@_spi(DataStoreInternals) import DataStoreCore

#if PostgreSQL
    import Synchronization

    /// Hands out connections to one server, one caller at a time, and keeps a few idle ones for reuse.
    ///
    /// A connection whose server session is gone is dropped instead of returned, so the next call connects
    /// anew: a restarted server costs the calls in flight, not the store.
    final class ConnectionPool: Sendable {
        let connectionString: String
        private let maximumIdle: Int
        private let idle = Lock<[PostgresConnection]>([])

        init(connectionString: String, maximumIdle: Int) {
            self.connectionString = connectionString
            self.maximumIdle = maximumIdle
        }

        /// Runs `body` with a connection: an idle one, or a new one.
        func withConnection<R>(_ body: (PostgresConnection) throws -> R) throws -> R {
            let reused = idle.withLock { $0.popLast() }
            let connection = try reused ?? PostgresConnection(connectionString: connectionString)
            defer { giveBack(connection) }
            return try body(connection)
        }

        private func giveBack(_ connection: PostgresConnection) {
            // A connection left inside a transaction (a failed rollback) or without a server is not reused.
            guard connection.isIdle else { return }
            idle.withLock { idle in
                if idle.count < maximumIdle { idle.append(connection) }
            }
        }
    }
#endif
