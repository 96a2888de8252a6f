#if PostgreSQL
    import DataStoreCore

    /// The tables of one PostgreSQL schema (namespace), shared by every store that names it, and the SQL
    /// that creates them. Each table's rows are keyed by the store's name first.
    ///
    /// - `format`: one row, the layout version, so an older library refuses tables a newer one wrote.
    /// - `stores`: one row per store: epoch, the latest and oldest valid sequence, the next change identifier,
    ///   the last commit's timestamp, the recorded schema. A save locks this row (`SELECT … FOR UPDATE`) for
    ///   its whole transaction, which is what orders writers and makes history positions commit-safe.
    /// - `models`: one row per model: the snapshot's values as the store's JSON (`snapshot`, exact) and a
    ///   `jsonb` projection of its scalar values for predicates and sorts run in SQL (`fields`). `row_key` spells
    ///   store, entity and primary key in one unique column: saves and fetches by identifier look rows up by
    ///   it, one index probe per key (``rows(of:byUnique:in:columns:)``); a list on the third column of the
    ///   primary key was planned, before statistics existed, as a filter over every row of the entity.
    /// - `unique_values`: who holds each value of a `.unique` attribute or unique set, keyed the same way
    ///   (`unique_key`); its primary key makes the database refuse a duplicate even if a planner were wrong. A
    ///   save releases the values a model held by their keys, computed from the row it read.
    /// - `history`: one row per transaction, its changes as JSON.
    struct StoreTables: Sendable {
        /// The layout version these tables are written in.
        static let formatVersion = 1

        /// The schema's name, validated.
        let namespace: String

        /// Validates a PostgreSQL schema name: lowercase letters, digits and underscores, at most 63 bytes.
        init(namespace: String) throws(DataStoreError) {
            let allowed = namespace.utf8.allSatisfy {
                ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
                    || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                    || $0 == UInt8(ascii: "_")
            }
            guard let first = namespace.utf8.first, allowed, namespace.utf8.count <= 63,
                !(first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9"))
            else {
                throw .invalidConfiguration(
                    reason:
                        "databaseSchema '\(namespace)' is not a plain PostgreSQL name (lowercase letters, digits and "
                        + "underscores, not starting with a digit, at most 63 bytes)")
            }
            self.namespace = namespace
        }

        var format: String { "\"\(namespace)\".format" }
        var stores: String { "\"\(namespace)\".stores" }
        var models: String { "\"\(namespace)\".models" }
        var uniqueValues: String { "\"\(namespace)\".unique_values" }
        var history: String { "\"\(namespace)\".history" }

        /// Creates the schema and the format table, under a lock that serialises concurrent first opens.
        var createFormatTable: String {
            """
            SELECT pg_advisory_xact_lock(hashtext('datastorehistory:\(namespace)'));
            CREATE SCHEMA IF NOT EXISTS "\(namespace)";
            CREATE TABLE IF NOT EXISTS \(format) (
                singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
                version integer NOT NULL);
            INSERT INTO \(format) (version) VALUES (\(Self.formatVersion)) ON CONFLICT DO NOTHING;
            """
        }

        /// Creates the other tables; run after the format version was checked.
        var createTables: String {
            """
            CREATE TABLE IF NOT EXISTS \(stores) (
                name text PRIMARY KEY,
                epoch uuid NOT NULL,
                latest_sequence bigint NOT NULL DEFAULT 0,
                oldest_valid_sequence bigint NOT NULL DEFAULT 0,
                next_change_identifier bigint NOT NULL DEFAULT 1,
                last_timestamp double precision NOT NULL DEFAULT 0,
                schema_record text,
                schema_generation bigint NOT NULL DEFAULT 0);
            CREATE TABLE IF NOT EXISTS \(models) (
                store text NOT NULL,
                entity text NOT NULL,
                primary_key text COLLATE "C" NOT NULL,
                row_key text NOT NULL UNIQUE,
                snapshot text NOT NULL,
                fields jsonb NOT NULL,
                PRIMARY KEY (store, entity, primary_key));
            CREATE TABLE IF NOT EXISTS \(uniqueValues) (
                store text NOT NULL,
                entity text NOT NULL,
                attributes text NOT NULL,
                value_key text NOT NULL,
                primary_key text NOT NULL,
                unique_key text PRIMARY KEY);
            CREATE TABLE IF NOT EXISTS \(history) (
                store text NOT NULL,
                sequence bigint NOT NULL,
                timestamp double precision NOT NULL,
                first_change bigint NOT NULL,
                author text,
                bundle_identifier text NOT NULL,
                process_identifier text NOT NULL,
                changes text NOT NULL,
                PRIMARY KEY (store, sequence));
            """
        }

        /// One column spelling several: each part length-prefixed, so no two tuples spell the same key.
        static func key(_ parts: String...) -> String {
            // Written as bytes into the string's own storage: interpolating each part and joining them (or
            // appending) cost a tenth of a sync push's CPU, as a save spells a key for every row and unique value
            // it reads or writes.
            var length = 0
            for part in parts { length += decimalDigits(part.utf8.count) + 1 + part.utf8.count }
            return String(unsafeUninitializedCapacity: length) { buffer in
                var position = 0
                for part in parts {
                    let count = part.utf8.count
                    var remaining = count
                    let digits = decimalDigits(count)
                    for place in stride(from: position + digits - 1, through: position, by: -1) {
                        buffer[place] = UInt8(ascii: "0") + UInt8(remaining % 10)
                        remaining /= 10
                    }
                    position += digits
                    buffer[position] = UInt8(ascii: ":")
                    position += 1
                    for byte in part.utf8 {
                        buffer[position] = byte
                        position += 1
                    }
                }
                return position
            }
        }

        /// How many digits `number` (not negative) takes in decimal.
        private static func decimalDigits(_ number: Int) -> Int {
            var digits = 1
            var rest = number
            while rest >= 10 {
                rest /= 10
                digits += 1
            }
            return digits
        }

        /// A `FROM` item, `found`: the `columns` of the rows of `table` whose unique `column` is one of the keys
        /// in the text-array parameter `keys` (named more than once, a key's row is still there once).
        ///
        /// Each key is one probe of `column`'s index whatever PostgreSQL knows of the table. `column = ANY($1)`
        /// leaves the planner a choice between an index probe per key and one scan, and a table never analyzed
        /// looks ten pages long to it, where the scan is cheaper: a prepared statement keeps the plan it made
        /// while the store was new, and scanned the whole table on every save until autovacuum analyzed it
        /// (`PostgresSaveCostTests`). Here the `LIMIT` keeps the lookup a subquery run once per key, whose only
        /// choice is between one probe and one scan of the table: the probe is the cheaper unless the table
        /// holds a handful of rows by its statistics.
        static func rows(of table: String, byUnique column: String, in keys: String, columns: String)
            -> String
        {
            """
            (SELECT DISTINCT unnest(\(keys)::text[])) AS wanted(key)
            CROSS JOIN LATERAL (SELECT \(columns) FROM \(table) WHERE \(column) = wanted.key LIMIT 1) AS found
            """
        }

        /// The `row_key` of a model.
        static func rowKey(_ id: PersistentIdentifier, store: String) -> String {
            key(store, id.entityName, id.primaryKey)
        }

        /// The channel `NOTIFY` wakes a store's readers on: at most 63 bytes, as PostgreSQL's identifiers.
        func channel(for store: String) -> String {
            String(decoding: "datastore:\(namespace):\(store)".utf8.prefix(63), as: UTF8.self)
        }
    }
#endif
