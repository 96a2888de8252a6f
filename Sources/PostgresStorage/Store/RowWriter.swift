#if PostgreSQL
    import DataStoreCore
    import StoreFileSupport

    /// Writes model rows and their unique values, a statement per kind of write whatever the number of rows
    /// (the rows travel as arrays and `unnest` into the table), inside the caller's transaction.
    struct RowWriter {
        let connection: PostgresConnection
        let tables: StoreTables
        let store: String
        let schema: Schema?

        /// Inserts the rows, or replaces the rows with their identifiers.
        func upsert(_ rows: [DataStoreSnapshot]) throws {
            guard !rows.isEmpty else { return }
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
            try connection.execute(
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
        func delete(_ identifiers: [PersistentIdentifier]) throws {
            guard !identifiers.isEmpty else { return }
            try connection.execute(
                """
                DELETE FROM \(tables.models) WHERE store = $1
                AND (entity, primary_key) IN (SELECT * FROM unnest($2::text[], $3::text[]))
                """,
                [
                    store, SQLFetchQuery.arrayLiteral(identifiers.map(\.entityName)),
                    SQLFetchQuery.arrayLiteral(identifiers.map(\.primaryKey)),
                ])
        }

        /// Replaces the unique values the models `identifiers` hold with those of `rows` (their new state;
        /// a deleted model has none). Entities without uniqueness constraints cost nothing.
        func replaceUniqueValues(of identifiers: [PersistentIdentifier], with rows: [DataStoreSnapshot])
            throws
        {
            guard let schema else { return }
            let constrained = identifiers.filter {
                !(schema.entity(named: $0.entityName)?.uniqueConstraints.isEmpty ?? true)
            }
            guard !constrained.isEmpty else { return }
            try connection.execute(
                """
                DELETE FROM \(tables.uniqueValues) WHERE store = $1
                AND (entity, primary_key) IN (SELECT * FROM unnest($2::text[], $3::text[]))
                """,
                [
                    store, SQLFetchQuery.arrayLiteral(constrained.map(\.entityName)),
                    SQLFetchQuery.arrayLiteral(constrained.map(\.primaryKey)),
                ])
            var columns: [[String]] = [[], [], [], []]
            for row in rows {
                let id = row.persistentIdentifier
                guard let entity = schema.entity(named: id.entityName) else { continue }
                for attributes in entity.uniqueConstraints {
                    let values = attributes.map { row[attribute: $0] }
                    guard !values.contains(.null) else { continue }  // nil is not unique
                    columns[0].append(id.entityName)
                    columns[1].append(PostgresRowSource.attributesKey(attributes))
                    columns[2].append(PostgresRowSource.valueKey(values))
                    columns[3].append(id.primaryKey)
                }
            }
            guard !columns[0].isEmpty else { return }
            try connection.execute(
                """
                INSERT INTO \(tables.uniqueValues) (store, entity, attributes, value_key, primary_key)
                SELECT $1, e, a, v, k FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS t(e, a, v, k)
                """, [store] + columns.map(SQLFetchQuery.arrayLiteral))
        }
    }
#endif
