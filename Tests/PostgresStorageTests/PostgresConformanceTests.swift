#if PostgreSQL
    import DataStoreConformance
    import Foundation
    import PostgresStorage
    import Testing

    /// The whole conformance suite, in one line, against the PostgreSQL store: each check gets tables of its own
    /// (a PostgreSQL schema named after the check's directory).
    @Test(arguments: ConformanceCase.allCases)
    func postgresStoreConforms(_ check: ConformanceCase) async throws {
        try await DataStoreConformance.run(
            check, capabilities: [.durable, .multiProcess, .historyUpdates, .batchDeletes, .previousValues]
        ) {
            try PostgresDataStore(
                .init(
                    name: $0.storeName, schema: $0.schema,
                    connectionString: try PostgresServer.connectionString,
                    databaseSchema: PostgresServer.namespace(for: $0.directory)))
        }
    }
#endif
