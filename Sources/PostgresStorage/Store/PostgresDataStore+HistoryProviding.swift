#if PostgreSQL
    public import DataStoreCore
    import Synchronization

    extension PostgresDataStore: HistoryProviding {
        /// The store's transaction type.
        public typealias HistoryType = PostgresHistoryTransaction

        /// Fetches history in one read-only `REPEATABLE READ` transaction: the tokens are validated against
        /// the store's row, then the history rows are read by indexed range queries on the sequence, batch by
        /// batch, up to the limit.
        public func fetchHistory(_ descriptor: HistoryDescriptor<PostgresHistoryTransaction>) throws
            -> [PostgresHistoryTransaction]
        {
            var statistics = HistoryQueryStatistics()
            defer { counters.withLock { $0.history.add(statistics) } }
            return try withStateTransaction(
                "fetch history", isolation: "REPEATABLE READ READ ONLY", lock: false
            ) {
                connection, state in
                try run(descriptor, on: connection, state: state, statistics: &statistics)
            }
        }

        /// Deletes the matching transactions; tokens older than the newest deleted one expire.
        public func deleteHistory(_ descriptor: HistoryDescriptor<PostgresHistoryTransaction>) throws {
            var statistics = HistoryQueryStatistics()
            defer { counters.withLock { $0.history.add(statistics) } }
            try withStateTransaction("delete history", lock: true) { connection, state in
                var everything = descriptor
                everything.fetchLimit = nil
                let doomed = try run(everything, on: connection, state: state, statistics: &statistics)
                guard let newest = doomed.map(\.token.sequence).max() else { return }
                try connection.execute(
                    "DELETE FROM \(tables.history) WHERE store = $1 AND sequence = ANY($2::bigint[])",
                    [identifier, "{" + doomed.map { String($0.token.sequence) }.joined(separator: ",") + "}"])
                try connection.execute(
                    """
                    UPDATE \(tables.stores) SET oldest_valid_sequence = GREATEST(oldest_valid_sequence, $2)
                    WHERE name = $1
                    """, [identifier, String(newest)])
            }
        }

        private func run(
            _ descriptor: HistoryDescriptor<PostgresHistoryTransaction>, on connection: PostgresConnection,
            state: State, statistics: inout HistoryQueryStatistics
        ) throws -> [PostgresHistoryTransaction] {
            try checkSchemaGeneration(state)
            let query = HistoryQuery<PostgresHistoryTransaction>(
                storeIdentifier: identifier, epoch: state.epoch,
                oldestValidSequence: state.oldestValidSequence,
                latestSequence: state.latestSequence)
            let source = PostgresHistorySource(
                connection: connection, tables: tables, store: identifier, epoch: state.epoch,
                failure: failure("fetch history"))
            return try query.run(descriptor, source: source, statistics: &statistics)
        }
    }

    extension PostgresDataStore: HistoryReadCounting {
        /// The history transactions this instance read from the database since it was opened.
        public var historyTransactionsExamined: Int { counters.withLock { $0.history.examinedTransactions } }
    }
#endif
