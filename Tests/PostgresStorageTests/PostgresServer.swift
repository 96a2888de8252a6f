#if PostgreSQL
    import DataStoreCore
    import Foundation
    @testable import PostgresStorage
    import StoreTestSupport

    /// The throwaway server `Scripts/with-postgres` started for this test run.
    enum PostgresServer {
        struct Missing: Error, CustomStringConvertible {
            var description: String {
                "DATASTORE_POSTGRES_URL is not set. The PostgreSQL tests need a server: run them with "
                    + "`Scripts/with-postgres swift test --traits PostgreSQL --filter PostgresStorageTests`, "
                    + "which starts a throwaway one and removes it afterwards."
            }
        }

        /// The connection string of the test server, from `DATASTORE_POSTGRES_URL`; throws (failing the test)
        /// when it is not set.
        static var connectionString: String {
            get throws {
                guard let url = ProcessInfo.processInfo.environment["DATASTORE_POSTGRES_URL"], !url.isEmpty
                else {
                    throw Missing()
                }
                return url
            }
        }

        /// Runs one statement on a connection of its own and returns its rows.
        @discardableResult
        static func query(_ sql: String, _ parameters: [String?] = []) throws -> [[String?]] {
            try PostgresConnection(connectionString: connectionString).execute(sql, parameters).rows
        }

        /// How many lock requests of the sessions named `application` are waiting right now.
        static func waitingLockCount(application: String) throws -> Int {
            let rows = try query(
                """
                SELECT count(*) FROM pg_locks JOIN pg_stat_activity USING (pid)
                WHERE NOT granted AND application_name = $1
                """, [application])
            return Int(rows.first?.first.flatMap { $0 } ?? "0") ?? 0
        }

        /// A store configuration for `Entry` in a fresh PostgreSQL schema. Its connections carry the schema's
        /// name as `application_name`, so a test can find its own sessions in `pg_stat_activity` while other
        /// tests run.
        static func entryConfiguration(namespace: String = freshNamespace()) throws
            -> PostgresStoreConfiguration
        {
            PostgresStoreConfiguration(
                name: "entries", schema: Entry.schema,
                connectionString: try connectionString + "?application_name=\(namespace)",
                databaseSchema: namespace)
        }

        /// A fresh PostgreSQL schema name, so that every test has tables of its own.
        static func freshNamespace(_ label: String = "t") -> String {
            "\(label)_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        }
    }
#endif

#if PostgreSQL
    extension PostgresServer {
        /// The PostgreSQL schema name for a test directory: the same directory, the same tables, so that
        /// reopening a store finds its data.
        static func namespace(for directory: URL) -> String {
            var hasher = StableHash()
            for byte in directory.path.utf8 { hasher.add(byte) }
            return "c_\(String(hasher.value, radix: 16))"
        }
    }

    /// FNV-1a: the same value in every process (Swift's `Hasher` is seeded per process).
    struct StableHash {
        private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
        mutating func add(_ byte: UInt8) {
            value = (value ^ UInt64(byte)) &* 0x100_0000_01b3
        }
    }
#endif
