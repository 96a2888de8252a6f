#if PostgreSQL
    import DataStoreCore
    import StoreFileSupport

    /// The statements that write model rows and their unique values: one statement per kind of write whatever
    /// the number of rows (the rows travel as arrays and `unnest` into the table). A save sends them in one
    /// pipeline; a migration runs them one by one.
    struct RowWriter {
        let tables: StoreTables
        let store: String
        let schema: Schema?

        /// The statements that make the rows `upserts` hold, delete `deletes`, and move the unique values
        /// of every model among them, in an order that never collides with itself: old unique values go first.
        func statements(upserting upserts: [DataStoreSnapshot], deleting deletes: [PersistentIdentifier])
            -> [SQLStatement]
        {
            [
                releaseUniqueValues(of: upserts.map(\.persistentIdentifier) + deletes), delete(deletes),
                upsert(upserts), claimUniqueValues(of: upserts),
            ].compactMap { $0 }
        }

        /// Runs ``statements(upserting:deleting:)`` on `connection`, one at a time.
        func write(
            upserting upserts: [DataStoreSnapshot], deleting deletes: [PersistentIdentifier],
            on connection: PostgresConnection
        ) throws {
            for statement in statements(upserting: upserts, deleting: deletes) {
                try connection.execute(statement.sql, statement.parameters)
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
                INSERT INTO \(tables.models) (store, entity, primary_key, snapshot, fields)
                SELECT $1, e, k, s, f::jsonb FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS t(e, k, s, f)
                ON CONFLICT (store, entity, primary_key) DO UPDATE SET snapshot = excluded.snapshot, fields = excluded.fields
                """,
                [
                    store, SQLFetchQuery.arrayLiteral(entities), SQLFetchQuery.arrayLiteral(keys),
                    SQLFetchQuery.arrayLiteral(snapshots), SQLFetchQuery.arrayLiteral(fields),
                ])
        }

        /// Deletes the rows.
        private func delete(_ identifiers: [PersistentIdentifier]) -> SQLStatement? {
            guard !identifiers.isEmpty else { return nil }
            return SQLStatement(
                """
                DELETE FROM \(tables.models) WHERE store = $1
                AND (entity, primary_key) IN (SELECT * FROM unnest($2::text[], $3::text[]))
                """,
                [
                    store, SQLFetchQuery.arrayLiteral(identifiers.map(\.entityName)),
                    SQLFetchQuery.arrayLiteral(identifiers.map(\.primaryKey)),
                ])
        }

        /// Deletes the unique values the models hold now. Entities without uniqueness constraints cost nothing.
        private func releaseUniqueValues(of identifiers: [PersistentIdentifier]) -> SQLStatement? {
            guard let schema else { return nil }
            let constrained = identifiers.filter {
                !(schema.entity(named: $0.entityName)?.uniqueConstraints.isEmpty ?? true)
            }
            guard !constrained.isEmpty else { return nil }
            return SQLStatement(
                """
                DELETE FROM \(tables.uniqueValues) WHERE store = $1
                AND (entity, primary_key) IN (SELECT * FROM unnest($2::text[], $3::text[]))
                """,
                [
                    store, SQLFetchQuery.arrayLiteral(constrained.map(\.entityName)),
                    SQLFetchQuery.arrayLiteral(constrained.map(\.primaryKey)),
                ])
        }

        /// Records the unique values `rows` hold.
        private func claimUniqueValues(of rows: [DataStoreSnapshot]) -> SQLStatement? {
            var columns: [[String]] = [[], [], [], []]
            for row in rows {
                for key in UniqueValueKey.keys(of: row, schema: schema) {
                    columns[0].append(key.entity)
                    columns[1].append(key.attributes)
                    columns[2].append(key.value)
                    columns[3].append(row.persistentIdentifier.primaryKey)
                }
            }
            guard !columns[0].isEmpty else { return nil }
            return SQLStatement(
                """
                INSERT INTO \(tables.uniqueValues) (store, entity, attributes, value_key, primary_key)
                SELECT $1, e, a, v, k FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS t(e, a, v, k)
                """, [store] + columns.map(SQLFetchQuery.arrayLiteral))
        }
    }
#endif
