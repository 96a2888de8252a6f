#if PostgreSQL
    @_spi(DataStoreInternals) import DataStoreCore
    import Foundation
    import DataStoreKit
    import Synchronization

    /// A store's `history` rows as a ``HistorySource``: each batch is one indexed range query on
    /// `(store, sequence)`, with the timestamp and author bounds in its `WHERE`.
    ///
    /// Rows the instance's cache holds (``recent``: its own saves and the tails it read) come back without
    /// their changes and are taken from the cache, so a reader following the tail decodes each transaction
    /// once. A batch read without timestamp or author bounds holds every transaction of its range, and is
    /// cached in turn.
    struct PostgresHistorySource: HistorySource {
        let store: PostgresDataStore
        let epoch: UUID
        /// The cache as it was when the fetch read the store's row (a copy: another thread's save does not
        /// change it under the fetch).
        let recent: RecentHistory<PostgresHistoryTransaction>
        /// Where batches come from.
        let reads: Reads

        /// Where a source's batches come from.
        enum Reads {
            /// Queries on a connection inside the fetch's transaction.
            case connection(PostgresConnection)
            /// The one batch read in the same statement as the store's row (see
            /// `HistoryQuery.firstRead(_:)` and ``firstBatchStatement(store:first:recent:)``); any other batch
            /// throws ``NeedsTransaction``.
            case prefetched(after: Int64, through: Int64, limit: Int, rows: [ArraySlice<String?>])
        }

        /// The columns of the store's row that ``firstBatchStatement(store:first:recent:)`` returns before the
        /// history columns, in the order `PostgresDataStore.stateStatement(lock:)` reads them.
        static let stateColumns = 6

        /// One statement (so one snapshot, without `BEGIN`) that reads the store's row and the query's first
        /// batch: one row with the store's columns (then `NULL`s), and the batch's rows with `NULL`s in their
        /// place. Positions are taken in commit order, so this snapshot holds every transaction up to the
        /// latest sequence it shows.
        static func firstBatchStatement(
            store: PostgresDataStore,
            first: (
                after: Int64, through: Int64, bounds: HistoryPredicateBounds<PostgresHistoryTransaction>,
                limit: Int
            ),
            recent: RecentHistory<PostgresHistoryTransaction>
        ) -> SQLStatement {
            let batch = statement(
                store: store, after: first.after, through: first.through, bounds: first.bounds,
                limit: first.limit, recent: recent)
            return SQLStatement(
                """
                SELECT epoch, latest_sequence, oldest_valid_sequence, next_change_identifier, last_timestamp,
                    schema_generation, NULL::bigint, NULL::float8, NULL::bigint, NULL::text, NULL::text, NULL::text,
                    NULL::text
                FROM \(store.tables.stores) WHERE name = $1
                UNION ALL
                SELECT NULL::uuid, NULL::bigint, NULL::bigint, NULL::bigint, NULL::float8, NULL::bigint, batch.*
                FROM (\(batch.sql)) batch
                """, batch.parameters, reusable: true)
        }

        /// Splits what ``firstBatchStatement(store:first:recent:)`` returned into the store's row and the
        /// batch's rows, in sequence order.
        static func splitFirstBatch(_ rows: PostgresRows) -> (
            state: PostgresRows, batch: [ArraySlice<String?>]
        ) {
            var state: [[String?]] = []
            var batch: [ArraySlice<String?>] = []
            batch.reserveCapacity(rows.rows.count)
            for row in rows.rows {
                if row[0] != nil {
                    state.append(row)
                } else {
                    batch.append(row[stateColumns...])
                }
            }
            // `UNION ALL` keeps each part's order in practice; SQL does not promise it.
            func sequence(_ row: ArraySlice<String?>) -> Int64 {
                row.first.flatMap { $0.flatMap { Int64($0) } } ?? 0
            }
            if !zip(batch, batch.dropFirst()).allSatisfy({ sequence($0) < sequence($1) }) {
                batch.sort { sequence($0) < sequence($1) }
            }
            return (PostgresRows(rows: state), batch)
        }

        /// Thrown when a fetch answered in one round trip needs more than its first batch: the caller runs it
        /// again inside a transaction.
        struct NeedsTransaction: Error {}

        /// The query for one batch: the rows after `after` through `through`, at most `limit`, with the
        /// timestamp and author bounds; rows the cache covers without their changes.
        static func statement(
            store: PostgresDataStore, after: Int64, through: Int64,
            bounds: HistoryPredicateBounds<PostgresHistoryTransaction>, limit: Int,
            recent: RecentHistory<PostgresHistoryTransaction>
        ) -> SQLStatement {
            // An empty cache asks for the changes of every row (1 to 0 holds none).
            let cached = recent.range.map { ($0.lowerBound, $0.upperBound) } ?? (1, 0)
            var parameters: [String?] = [
                store.identifier, String(after), String(through), String(max(limit, 0)), String(cached.0),
                String(cached.1),
            ]
            var conditions = ["store = $1", "sequence > $2", "sequence <= $3"]
            if let bound = bounds.lowerTimestamp {
                parameters.append("\(bound.value.timeIntervalSinceReferenceDate)")
                conditions.append("timestamp \(bound.isInclusive ? ">=" : ">") $\(parameters.count)::float8")
            }
            if let bound = bounds.upperTimestamp {
                parameters.append("\(bound.value.timeIntervalSinceReferenceDate)")
                conditions.append("timestamp \(bound.isInclusive ? "<=" : "<") $\(parameters.count)::float8")
            }
            if let author = bounds.author {
                parameters.append(author)
                conditions.append("author = $\(parameters.count)")
            }
            return SQLStatement(
                """
                SELECT sequence, timestamp, first_change, author, bundle_identifier, process_identifier,
                    CASE WHEN sequence BETWEEN $5 AND $6 THEN NULL ELSE changes END AS changes
                FROM \(store.tables.history) WHERE \(conditions.joined(separator: " AND "))
                ORDER BY sequence LIMIT $4
                """, parameters, reusable: true)
        }

        func transactions(
            after: Int64, through: Int64, bounds: HistoryPredicateBounds<PostgresHistoryTransaction>,
            limit: Int
        ) throws -> [PostgresHistoryTransaction] {
            let rows: [ArraySlice<String?>]
            switch reads {
            case .prefetched(after, through, limit, let prefetched):
                rows = prefetched
            case .prefetched:
                throw NeedsTransaction()
            case .connection(let connection):
                do {
                    rows = try connection.execute(
                        Self.statement(
                            store: store, after: after, through: through, bounds: bounds, limit: limit,
                            recent: recent)
                    ).rows.map { $0[...] }
                } catch {
                    throw store.failure("fetch history")(error)
                }
            }
            let batch = try rows.map(transaction)
            let decoded = rows.count { $0[$0.startIndex + 6] != nil }
            store.counters.withLock { $0.decodedHistoryRows += decoded }
            // Rows the cache held add nothing to it.
            if decoded > 0 && bounds.lowerTimestamp == nil && bounds.upperTimestamp == nil
                && bounds.author == nil
            {
                store.rememberHistory(batch, after: after, epoch: epoch)
            }
            return batch
        }

        /// The transaction of one row of ``statement(store:after:through:bounds:limit:recent:)``'s columns.
        private func transaction(_ columns: ArraySlice<String?>) throws(DataStoreError)
            -> PostgresHistoryTransaction
        {
            // The slice keeps the indices of the row it was cut from.
            func row(_ column: Int) -> String? { columns[columns.startIndex + column] }
            let unreadable = DataStoreError.storageUnavailable(
                path: "\(store.tables.history) of store '\(store.identifier)'",
                reason: "a history row does not decode; was the table written by another program?")
            guard let sequence = row(0).flatMap({ Int64($0) }) else { throw unreadable }
            guard let text = row(6) else {
                // Left out because the cache holds it; it always does, as the cache was copied before the query.
                guard let cached = recent.transaction(sequence) else { throw unreadable }
                return cached
            }
            guard let timestamp = row(1).flatMap({ Double($0) }),
                let firstChange = row(2).flatMap({ Int64($0) }), let bundle = row(4), let process = row(5),
                let json = try? JSONParser.parse(Array(text.utf8)),
                let planned = try? PlannedChangeCodec.decode(json)
            else { throw unreadable }
            return PostgresHistoryTransaction(
                timestamp: Date(timeIntervalSinceReferenceDate: timestamp),
                changes: Self.changes(planned, firstChange: firstChange, sequence: sequence),
                token: PostgresHistoryToken(
                    storeIdentifier: store.identifier, epoch: epoch, sequence: sequence),
                author: row(3), bundleIdentifier: bundle, processIdentifier: process)
        }

        /// A transaction's changes, numbered from `firstChange`.
        static func changes(_ planned: [PlannedChange], firstChange: Int64, sequence: Int64)
            -> [PostgresHistoryChange]
        {
            var changes: [PostgresHistoryChange] = []
            changes.reserveCapacity(planned.count)
            for (offset, change) in planned.enumerated() {
                changes.append(
                    PostgresHistoryChange(
                        change, changeIdentifier: firstChange + Int64(offset), transactionIdentifier: sequence
                    ))
            }
            return changes
        }
    }
#endif
