#if PostgreSQL
    import DataStoreCore
    import Foundation
    import StoreFileSupport

    /// A store's `history` rows as a ``HistorySource``: each batch is one indexed range query on
    /// `(store, sequence)`, with the timestamp and author bounds in its `WHERE`.
    struct PostgresHistorySource: HistorySource {
        let connection: PostgresConnection
        let tables: StoreTables
        let store: String
        let epoch: UUID
        let failure: (PostgresError) -> DataStoreError

        func transactions(
            after: Int64, through: Int64, bounds: HistoryPredicateBounds<PostgresHistoryTransaction>,
            limit: Int
        ) throws -> [PostgresHistoryTransaction] {
            var parameters: [String?] = [store, String(after), String(through), String(max(limit, 0))]
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
            let rows: PostgresRows
            do {
                rows = try connection.execute(
                    SQLStatement(
                        """
                        SELECT sequence, timestamp, first_change, author, bundle_identifier, process_identifier, changes
                        FROM \(tables.history) WHERE \(conditions.joined(separator: " AND "))
                        ORDER BY sequence LIMIT $4
                        """, parameters, reusable: true))
            } catch {
                throw failure(error)
            }
            return try rows.rows.map(transaction)
        }

        private func transaction(_ row: [String?]) throws(DataStoreError) -> PostgresHistoryTransaction {
            guard let sequence = row[0].flatMap({ Int64($0) }),
                let timestamp = row[1].flatMap({ Double($0) }),
                let firstChange = row[2].flatMap({ Int64($0) }), let bundle = row[4], let process = row[5],
                let text = row[6], let json = try? JSONParser.parse(Array(text.utf8)),
                let planned = try? PlannedChangeCodec.decode(json)
            else {
                throw .storageUnavailable(
                    path: "\(tables.history) of store '\(store)'",
                    reason: "a history row does not decode; was the table written by another program?")
            }
            var changes: [PostgresHistoryChange] = []
            changes.reserveCapacity(planned.count)
            for (offset, change) in planned.enumerated() {
                changes.append(
                    PostgresHistoryChange(
                        change, changeIdentifier: firstChange + Int64(offset), transactionIdentifier: sequence
                    ))
            }
            return PostgresHistoryTransaction(
                timestamp: Date(timeIntervalSinceReferenceDate: timestamp), changes: changes,
                token: PostgresHistoryToken(storeIdentifier: store, epoch: epoch, sequence: sequence),
                author: row[3], bundleIdentifier: bundle, processIdentifier: process)
        }
    }
#endif
