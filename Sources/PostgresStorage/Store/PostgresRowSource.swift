#if PostgreSQL
    import DataStoreCore
    import Foundation
    import StoreFileSupport

    /// The rows a save plan reads, from the database, inside the save's transaction: the store's row lock is
    /// held, so what it reads is what the save commits on top of. Rows the request names are read in one
    /// query up front (``prefetch(_:)``); any other row and every unique holder is one indexed lookup.
    final class PostgresRowSource: SnapshotRowSource {
        private let connection: PostgresConnection
        private let tables: StoreTables
        private let store: String
        private let failure: (PostgresError) -> DataStoreError
        /// The rows read so far (`nil`: not in the store).
        private(set) var rows: [PersistentIdentifier: DataStoreSnapshot?] = [:]
        /// How many queries the source ran, for tests that count round trips.
        private(set) var queries = 0

        init(
            connection: PostgresConnection, tables: StoreTables, store: String,
            failure: @escaping (PostgresError) -> DataStoreError
        ) {
            self.connection = connection
            self.tables = tables
            self.store = store
            self.failure = failure
        }

        /// Reads the rows of `identifiers` in one query.
        func prefetch(_ identifiers: [PersistentIdentifier]) throws(DataStoreError) {
            let wanted = identifiers.filter { $0.storeIdentifier == store && rows[$0] == nil }
            guard !wanted.isEmpty else { return }
            for id in wanted { rows[id] = .some(nil) }
            let found = try query(
                """
                SELECT entity, primary_key, snapshot FROM \(tables.models) m
                JOIN unnest($2::text[], $3::text[]) AS wanted(entity, primary_key) USING (entity, primary_key)
                WHERE m.store = $1
                """,
                [
                    store, SQLFetchQuery.arrayLiteral(wanted.map(\.entityName)),
                    SQLFetchQuery.arrayLiteral(wanted.map(\.primaryKey)),
                ])
            for row in found.rows {
                guard let entity = row[0], let key = row[1], let text = row[2] else { continue }
                let id = PersistentIdentifier(storeIdentifier: store, entityName: entity, primaryKey: key)
                rows[id] = .some(try Self.snapshot(id, text: text, store: store))
            }
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
                "SELECT snapshot FROM \(tables.models) WHERE store = $1 AND entity = $2 AND primary_key = $3",
                [store, identifier.entityName, identifier.primaryKey])
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
            let found = try query(
                """
                SELECT primary_key FROM \(tables.uniqueValues)
                WHERE store = $1 AND entity = $2 AND attributes = $3 AND value_key = $4
                """,
                [store, entity, Self.attributesKey(attributes), Self.valueKey(values)])
            return found.scalar.map {
                PersistentIdentifier(storeIdentifier: store, entityName: entity, primaryKey: $0)
            }
        }

        private func query(_ sql: String, _ parameters: [String?]) throws(DataStoreError) -> PostgresRows {
            queries += 1
            do {
                return try connection.execute(sql, parameters)
            } catch {
                throw failure(error)
            }
        }

        /// The key of a uniqueness constraint's attributes: their names, joined.
        static func attributesKey(_ attributes: [String]) -> String {
            attributes.joined(separator: ",")
        }

        /// The key of a unique value: the values in the store's JSON, so equal values (as `SnapshotValue`'s `==`)
        /// have equal keys.
        static func valueKey(_ values: [SnapshotValue]) -> String {
            var writer = JSONWriter()
            writer.beginArray()
            for value in values { writer.value(normalized(value)) }
            writer.endArray()
            return String(decoding: writer.bytes, as: UTF8.self)
        }

        /// The one spelling of values that `SnapshotValue`'s `==` finds equal: NFC strings, `0.0` for `-0.0`.
        private static func normalized(_ value: SnapshotValue) -> SnapshotValue {
            switch value {
            case .string(let text): .string(text.precomposedStringWithCanonicalMapping)
            case .double(let number) where number == 0: .double(0)
            default: value
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
