#if PostgreSQL
    import DataStoreCore
    import DataStoreKit

    /// The statements that write model rows and their unique values: one statement per kind of write whatever
    /// the number of rows (the rows travel as arrays and `unnest` into the table). A save sends them in one
    /// pipeline; a migration runs them one by one.
    struct RowWriter {
        let tables: StoreTables
        let store: String
        let schema: Schema?

        /// The statements that make the rows `upserts` hold, delete `deletes`, and move the unique values of every
        /// model among them, in an order that never collides with itself: the values the `originals` (the stored
        /// rows the save replaces or deletes) held are released first. A value a model keeps (an update that
        /// leaves it unchanged) is neither released nor claimed again.
        func statements(
            upserting upserts: [DataStoreSnapshot], deleting deletes: [PersistentIdentifier],
            replacing originals: [DataStoreSnapshot]
        ) -> [SQLStatement] {
            let released = heldValues(originals)
            let claimed = heldValues(upserts)
            let kept = Set(released.map(\.column)).intersection(claimed.map(\.column))
            return [
                releaseUniqueValues(released.filter { !kept.contains($0.column) }), delete(deletes),
                upsert(upserts), claimUniqueValues(claimed.filter { !kept.contains($0.column) }),
            ].compactMap { $0 }
        }

        /// A unique value a row holds: its key, the `unique_key` column and the holder, which together name the
        /// `unique_values` row.
        private struct HeldValue {
            var key: UniqueValueKey
            var primaryKey: String
            /// The `unique_key` column and the holder, so that a value moving to another model is not "kept".
            var column: String
        }

        private func heldValues(_ rows: [DataStoreSnapshot]) -> [HeldValue] {
            rows.flatMap { row in
                UniqueValueKey.keys(of: row, schema: schema).map { key in
                    let primaryKey = row.persistentIdentifier.primaryKey
                    return HeldValue(
                        key: key, primaryKey: primaryKey,
                        column: key.column(store: store) + "\u{0}" + primaryKey)
                }
            }
        }

        /// Runs ``statements(upserting:deleting:)`` on `connection`, one at a time.
        func write(
            upserting upserts: [DataStoreSnapshot], deleting deletes: [PersistentIdentifier],
            replacing originals: [DataStoreSnapshot], on connection: PostgresConnection
        ) throws {
            for statement in statements(upserting: upserts, deleting: deletes, replacing: originals) {
                try connection.execute(statement)
            }
        }

        /// Inserts the rows, or replaces the rows with their identifiers.
        private func upsert(_ rows: [DataStoreSnapshot]) -> SQLStatement? {
            guard !rows.isEmpty else { return nil }
            var entities: [String] = []
            var keys: [String] = []
            var snapshots: [String] = []
            var fields: [String] = []
            for row in rows {
                entities.append(row.persistentIdentifier.entityName)
                keys.append(row.persistentIdentifier.primaryKey)
                var writer = JSONWriter()
                writer.values(row.values)
                snapshots.append(String(decoding: writer.bytes, as: UTF8.self))
                fields.append(FieldProjection.json(row.values))
            }
            return SQLStatement(
                """
                INSERT INTO \(tables.models) (store, entity, primary_key, row_key, snapshot, fields)
                SELECT $1, e, k, r, s, f::jsonb
                FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS t(e, k, r, s, f)
                ON CONFLICT (store, entity, primary_key) DO UPDATE SET snapshot = excluded.snapshot, fields = excluded.fields
                """,
                [
                    store, SQLFetchQuery.arrayLiteral(entities), SQLFetchQuery.arrayLiteral(keys),
                    SQLFetchQuery.arrayLiteral(
                        rows.map { StoreTables.rowKey($0.persistentIdentifier, store: store) }),
                    SQLFetchQuery.arrayLiteral(snapshots), SQLFetchQuery.arrayLiteral(fields),
                ], reusable: true)
        }

        /// Deletes the rows, by `row_key`.
        ///
        /// Planned for each save, not prepared once (as the deletes of unique values): PostgreSQL chooses
        /// between a probe of the index per key and one scan by the table's size, and a plan kept from while the
        /// store was new scanned the whole table on every later save (`PostgresSaveCostTests`). A lookup can
        /// be written so that every plan probes the index (``StoreTables/rows(of:byUnique:in:columns:)``); the
        /// rows a `DELETE` removes cannot, without a join PostgreSQL may again run as a scan.
        private func delete(_ identifiers: [PersistentIdentifier]) -> SQLStatement? {
            guard !identifiers.isEmpty else { return nil }
            return SQLStatement(
                "DELETE FROM \(tables.models) WHERE row_key = ANY($1::text[])",
                [SQLFetchQuery.arrayLiteral(identifiers.map { StoreTables.rowKey($0, store: store) })])
        }

        /// Deletes the unique values `held`, by their keys; planned for each save, as ``delete(_:)``.
        private func releaseUniqueValues(_ held: [HeldValue]) -> SQLStatement? {
            guard !held.isEmpty else { return nil }
            return SQLStatement(
                "DELETE FROM \(tables.uniqueValues) WHERE unique_key = ANY($1::text[])",
                [SQLFetchQuery.arrayLiteral(held.map { $0.key.column(store: store) })])
        }

        /// Records the unique values `held`.
        private func claimUniqueValues(_ held: [HeldValue]) -> SQLStatement? {
            guard !held.isEmpty else { return nil }
            var columns: [[String]] = [[], [], [], [], []]
            for value in held {
                columns[0].append(value.key.entity)
                columns[1].append(value.key.attributes)
                columns[2].append(value.key.value)
                columns[3].append(value.primaryKey)
                columns[4].append(value.key.column(store: store))
            }
            return SQLStatement(
                """
                INSERT INTO \(tables.uniqueValues) (store, entity, attributes, value_key, primary_key, unique_key)
                SELECT $1, e, a, v, k, u
                FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS t(e, a, v, k, u)
                """, [store] + columns.map(SQLFetchQuery.arrayLiteral), reusable: true)
        }
    }
#endif
