#if PostgreSQL
    import DataStoreCore
    import Foundation
    import JSONFileStorage
    import PostgresStorage
    import StoreTestSupport
    import Testing

    /// Two devices (JSON file stores) sync with a PostgreSQL store in both directions: 200 rounds of random
    /// edits on all three with random sync order.
    @Suite struct PostgresSyncTests {
        /// At the end all three hold the same notes; no device pushed or copied a transaction twice; no pulled
        /// change was pushed back. With the server keeping only 10 transactions, devices that fall behind
        /// resynchronise from a full snapshot and still converge.
        @Test(arguments: [nil, 10] as [Int?])
        func twoDevicesAndAPostgresServerConverge(keptTransactions: Int?) throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "postgres-sync-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let server = try PostgresDataStore(
                .init(
                    name: "server", schema: SyncNote.schema,
                    connectionString: try PostgresServer.connectionString,
                    databaseSchema: PostgresServer.freshNamespace(), maximumHistoryCount: keptTransactions))
            let outcome = try SyncScenario.run(
                rounds: 200, seed: 5, directory: directory, remote: server,
                makeDevice: { index in
                    try JSONFileDataStore(
                        .init(
                            name: "device\(index)", schema: SyncNote.schema,
                            directory: directory.appendingPathComponent("device\(index)"),
                            durability: .relaxed))
                })
            #expect(outcome.problems.isEmpty, "\(outcome.problems)")
            if keptTransactions != nil { #expect(outcome.resynchronisations > 0) }
        }
    }
#endif
