#if PostgreSQL
    import Foundation

    /// The throwaway server `Scripts/with-postgres` started for this test run.
    enum PostgresServer {
        /// The connection string of the test server, from `DATASTORE_POSTGRES_URL`.
        static var connectionString: String {
            guard let url = ProcessInfo.processInfo.environment["DATASTORE_POSTGRES_URL"], !url.isEmpty else {
                fatalError(
                    "DATASTORE_POSTGRES_URL is not set. The PostgreSQL tests need a server: run them with "
                        + "`Scripts/with-postgres swift test --traits PostgreSQL --filter PostgresStorageTests`, "
                        + "which starts a throwaway one and removes it afterwards.")
            }
            return url
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
