#if PostgreSQL
    import DataStoreCore
    import Foundation
    import DataStoreKit

    /// The rows a save plan reads, from the database, inside the save's transaction: the store's row lock is
    /// held, so what it reads is what the save commits on top of. The rows the request names and the holders
    /// of its unique values are read up front, in the pipeline that takes the lock (``rowsStatements(_:)``,
    /// ``holdersStatements(_:)``); any other row (a cascade's) is one indexed lookup.
    final class PostgresRowSource: SnapshotRowSource {
        private let connection: PostgresConnection
        private let tables: StoreTables
        private let store: String
        private let failure: (PostgresError) -> DataStoreError
        /// The rows read so far (`nil`: not in the store).
        private(set) var rows: [PersistentIdentifier: DataStoreSnapshot?] = [:]
        /// The unique-value holders read so far (`nil`: the value is free).
        private var holders: [UniqueValueKey: PersistentIdentifier?] = [:]

        init(
            connection: PostgresConnection, tables: StoreTables, store: String,
            failure: @escaping (PostgresError) -> DataStoreError
        ) {
            self.connection = connection
            self.tables = tables
            self.store = store
            self.failure = failure
        }

        /// Every row of `entity`: what a schema migration rewrites.
        func rows(of entity: String) throws(DataStoreError) -> [DataStoreSnapshot] {
            let found = try query(
                "SELECT primary_key, snapshot FROM \(tables.models) WHERE store = $1 AND entity = $2",
                [store, entity])
            var snapshots: [DataStoreSnapshot] = []
            for row in found.rows {
                guard let key = row[0], let text = row[1] else { continue }
                let id = PersistentIdentifier(storeIdentifier: store, entityName: entity, primaryKey: key)
                snapshots.append(try Self.snapshot(id, text: text, store: store))
            }
            return snapshots
        }

        func row(for identifier: PersistentIdentifier) throws(DataStoreError) -> DataStoreSnapshot? {
            if let known = rows[identifier] { return known }
            guard identifier.storeIdentifier == store else { return nil }
            let found = try query(
                "SELECT snapshot FROM \(tables.models) WHERE row_key = $1",
                [StoreTables.rowKey(identifier, store: store)])
            let row = try found.scalar.map { text throws(DataStoreError) in
                try Self.snapshot(identifier, text: text, store: store)
            }
            rows[identifier] = .some(row)
            return row
        }

        func uniqueHolder(entity: String, attributes: [String], values: [SnapshotValue])
            throws(DataStoreError)
            -> PersistentIdentifier?
        {
            let key = UniqueValueKey(entity: entity, attributes: attributes, values: values)
            if let known = holders[key] { return known }
            let found = try query(
                """
                SELECT primary_key FROM \(tables.uniqueValues) WHERE unique_key = $1
                """,
                [key.column(store: store)])
            let holder = found.scalar.map {
                PersistentIdentifier(storeIdentifier: store, entityName: entity, primaryKey: $0)
            }
            holders[key] = .some(holder)
            return holder
        }

        /// The statements that read the rows of `identifiers`, for a pipeline; hand their rows to
        /// ``receiveRows(_:of:)``. An index probe per key whatever PostgreSQL knows of the table
        /// (``StoreTables/rows(of:byUnique:in:columns:)``).
        func rowsStatements(_ identifiers: [PersistentIdentifier]) -> [SQLStatement] {
            let mine = identifiers.filter { $0.storeIdentifier == store }
            guard !mine.isEmpty else { return [] }
            return [
                SQLStatement(
                    """
                    SELECT entity, primary_key, snapshot FROM \(StoreTables.rows(
                        of: tables.models, byUnique: "row_key", in: "$1", columns: "entity, primary_key, snapshot"))
                    """,
                    [SQLFetchQuery.arrayLiteral(mine.map { StoreTables.rowKey($0, store: store) })],
                    reusable: true)
            ]
        }

        /// Caches the rows the ``rowsStatements(_:)`` returned; the identifiers they did not return are not
        /// there.
        func receiveRows(_ results: some Sequence<PostgresRows>, of identifiers: [PersistentIdentifier])
            throws(DataStoreError)
        {
            for id in identifiers where id.storeIdentifier == store { rows[id] = .some(nil) }
            for found in results {
                for row in found.rows {
                    guard let entity = row[0], let key = row[1], let text = row[2] else { continue }
                    let id = PersistentIdentifier(storeIdentifier: store, entityName: entity, primaryKey: key)
                    rows[id] = .some(try Self.snapshot(id, text: text, store: store))
                }
            }
        }

        /// The statements that read who holds `keys`, for a pipeline; hand their rows to
        /// ``receiveHolders(_:of:)``.
        func holdersStatements(_ keys: [UniqueValueKey]) -> [SQLStatement] {
            guard !keys.isEmpty else { return [] }
            return [
                SQLStatement(
                    """
                    SELECT entity, attributes, value_key, primary_key FROM \(StoreTables.rows(
                        of: tables.uniqueValues, byUnique: "unique_key", in: "$1",
                        columns: "entity, attributes, value_key, primary_key"))
                    """, [SQLFetchQuery.arrayLiteral(keys.map { $0.column(store: store) })], reusable: true)
            ]
        }

        /// Caches the holders the ``holdersStatements(_:)`` returned; the keys they did not return are free.
        func receiveHolders(_ results: some Sequence<PostgresRows>, of keys: [UniqueValueKey]) {
            for key in keys { holders[key] = .some(nil) }
            for found in results {
                for row in found.rows {
                    guard let entity = row[0], let attributes = row[1], let value = row[2], let key = row[3]
                    else { continue }
                    var unique = UniqueValueKey(entity: entity, attributes: [], values: [])
                    unique.attributes = attributes
                    unique.value = value
                    holders[unique] = .some(
                        PersistentIdentifier(storeIdentifier: store, entityName: entity, primaryKey: key))
                }
            }
        }

        private func query(_ sql: String, _ parameters: [String?]) throws(DataStoreError) -> PostgresRows {
            do {
                return try connection.execute(sql, parameters)
            } catch {
                throw failure(error)
            }
        }

        /// Decodes a `snapshot` column.
        static func snapshot(_ id: PersistentIdentifier, text: String, store: String) throws(DataStoreError)
            -> DataStoreSnapshot
        {
            guard let json = try? JSONParser.parse(Array(text.utf8)), let values = json.snapshotValues else {
                throw .storageUnavailable(
                    path: "\(store)/\(id.entityName)/\(id.primaryKey)",
                    reason:
                        "the row's snapshot is not the store's JSON; was the table written by another program?"
                )
            }
            return DataStoreSnapshot(persistentIdentifier: id, values: values)
        }
    }
#endif
