#if PostgreSQL
    @_spi(DataStoreInternals) import DataStoreCore
    import DataStoreTool
    import Foundation
    import PostgresStorage
    import StoreTestSupport
    import Synchronization
    import Testing

    /// `datastore info`, `history` and `tail` against a PostgreSQL connection string.
    @Suite struct PostgresToolTests {
        /// Runs the tool and returns its exit status, output and errors.
        func run(_ arguments: [String]) async -> (Int32, [String], String) {
            let output = Lock<[String]>([])
            let errors = Lock("")
            let status = await DataStoreTool.run(
                arguments, output: { line in output.withLock { $0.append(line) } },
                errors: { text in errors.withLock { $0 += text } })
            return (status, output.withLock { $0 }, errors.withLock { $0 })
        }

        @Test func infoAndHistoryReadAStoreInADatabase() async throws {
            let namespace = PostgresServer.freshNamespace()
            let configuration = try PostgresServer.entryConfiguration(namespace: namespace)
            let store = try PostgresDataStore(configuration)
            var tokens: [PostgresHistoryToken] = []
            for round in 0..<3 {
                let result = try store.save(
                    DataStoreSaveChangesRequest(
                        editingState: EditingState(author: "writer\(round)"),
                        inserted: Entry.batch(store: "entries", writer: "w", round: round)))
                tokens.append(try #require(result.token))
            }
            let url = configuration.connectionString
            let (status, info, _) = await run(["info", url, "--database-schema", namespace])
            #expect(status == 0)
            #expect(info.contains { $0.hasPrefix("backend") && $0.hasSuffix("postgres") })
            #expect(info.contains { $0.hasPrefix("models: Entry") && $0.hasSuffix(" 9") })
            #expect(info.contains { $0.hasPrefix("history transactions") && $0.hasSuffix(" 3") })

            let after = String(decoding: try JSONEncoder().encode(tokens[0]), as: UTF8.self)
            let (historyStatus, history, _) = await run([
                "history", url, "--database-schema", namespace, "--store", "entries", "--after", after,
                "--jsonl",
            ])
            #expect(historyStatus == 0)
            #expect(history.count == 2)
            #expect(
                history.first?.contains("\"writer1\"") == true
                    && history.last?.contains("\"writer2\"") == true)

            // A store name that is not there is a usage error, and creates nothing.
            let (missing, _, errors) = await run([
                "info", url, "--database-schema", namespace, "--store", "typo",
            ])
            #expect(missing == 2)
            #expect(errors.contains("no store named 'typo'"))
            #expect(
                try PostgresDataStore.storeNames(connectionString: url, databaseSchema: namespace) == [
                    "entries"
                ])
        }
    }
#endif
