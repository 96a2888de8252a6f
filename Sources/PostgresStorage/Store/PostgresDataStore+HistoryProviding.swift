#if PostgreSQL
    @_spi(DataStoreInternals) public import DataStoreCore
    import DataStoreKit
    import Synchronization

    extension PostgresDataStore: HistoryProvidingStore {
        /// The store's transaction type.
        public typealias HistoryType = PostgresHistoryTransaction

        /// Fetches history in one read-only `REPEATABLE READ` transaction: the tokens are validated against
        /// the store's row, then the history rows are read by indexed range queries on the sequence, batch by
        /// batch, up to the limit.
        ///
        /// A fetch read forward from its lower bound (after a token, say) sends the transaction, the read of the
        /// store's row and the first batch in one round trip; only when it needs more than that batch does it
        /// run again, reading batch by batch.
        public func fetchHistory(_ descriptor: HistoryDescriptor<PostgresHistoryTransaction>) throws
            -> [PostgresHistoryTransaction]
        {
            var statistics = HistoryQueryStatistics()
            defer { counters.withLock { $0.history.add(statistics) } }
            if let first = HistoryQuery<PostgresHistoryTransaction>.firstRead(descriptor),
                let answer = try fetchInOneRoundTrip(descriptor, first: first, statistics: &statistics)
            {
                return answer
            }
            return try withStateTransaction(
                "fetch history", isolation: "REPEATABLE READ READ ONLY", lock: false
            ) {
                connection, state in
                try run(descriptor, on: connection, state: state, statistics: &statistics)
            }
        }

        /// Reads the store's row and the query's first batch in one statement; `nil` when the query needs more
        /// than that batch (or the cache belongs to an erased epoch).
        private func fetchInOneRoundTrip(
            _ descriptor: HistoryDescriptor<PostgresHistoryTransaction>,
            first: (
                after: Int64, through: Int64, bounds: HistoryPredicateBounds<PostgresHistoryTransaction>,
                limit: Int
            ),
            statistics: inout HistoryQueryStatistics
        ) throws -> [PostgresHistoryTransaction]? {
            let recent = recentHistory.withLock { $0 }
            let rows = try withConnection("fetch history") { connection in
                try connection.execute(
                    PostgresHistorySource.firstBatchStatement(store: self, first: first, recent: recent))
            }
            let (stateRow, batch) = PostgresHistorySource.splitFirstBatch(rows)
            let state = try state(from: stateRow)
            if let cached = recent.transactions.first, cached.token.epoch != state.epoch { return nil }
            let source = PostgresHistorySource(
                store: self, epoch: state.epoch, recent: recent,
                reads: .prefetched(
                    after: first.after, through: first.through, limit: first.limit, rows: batch))
            var attempt = HistoryQueryStatistics()
            do {
                let answer = try query(state).run(descriptor, source: source, statistics: &attempt)
                statistics.add(attempt)
                return answer
            } catch is PostgresHistorySource.NeedsTransaction {
                return nil
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
            let source = PostgresHistorySource(
                store: self, epoch: state.epoch, recent: recentHistory(of: state.epoch),
                reads: .connection(connection))
            return try query(state).run(descriptor, source: source, statistics: &statistics)
        }

        /// The query over the store's history as `state` describes it; throws `schemaChanged` when another
        /// instance migrated the store.
        private func query(_ state: State) throws -> HistoryQuery<PostgresHistoryTransaction> {
            try checkSchemaGeneration(state)
            return HistoryQuery(
                storeIdentifier: identifier, epoch: state.epoch,
                oldestValidSequence: state.oldestValidSequence,
                latestSequence: state.latestSequence)
        }
    }

    extension PostgresDataStore: HistoryReadCounting {
        /// The history transactions this instance read from the database since it was opened.
        public var historyTransactionsExamined: Int { counters.withLock { $0.history.examinedTransactions } }
    }
#endif
