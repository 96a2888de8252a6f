#if PostgreSQL
    import DataStoreCore
    import Foundation
    import JSONFileStorage
    @testable import PostgresStorage
    import DataStoreSync
    import StoreTestSupport
    import Testing

    /// Two devices (JSON file stores) sync with a PostgreSQL store in both directions: 200 rounds of random
    /// edits on all three, pushes and pulls in random order, engines restarted now and then.
    @Suite struct PostgresSyncTests {
        /// At the end all three hold the same notes; every app transaction reached the server exactly once; no
        /// pulled change was pushed back. With the server's history deleted every 15 rounds, devices that fall
        /// behind resynchronise from a full copy and still converge.
        @Test(arguments: [nil, 15] as [Int?])
        func twoDevicesAndAPostgresServerConverge(trimEvery: Int?) throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "postgres-sync-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let server = try PostgresDataStore(
                .init(
                    name: "server", schema: SyncNote.schema,
                    connectionString: try PostgresServer.connectionString,
                    databaseSchema: PostgresServer.freshNamespace()))
            let outcome = try SyncScenario.run(
                rounds: 200, seed: 5, remote: server, trimServerEvery: trimEvery,
                makeDevice: { index in
                    try JSONFileDataStore(
                        .init(
                            name: "device\(index)", schema: SyncNote.schema,
                            directory: directory.appendingPathComponent("device\(index)"),
                            durability: .relaxed))
                })
            #expect(outcome.problems.isEmpty, "\(outcome.problems)")
            if trimEvery != nil { #expect(outcome.resynchronisations > 0) }
        }
    }

    /// Pushes that fail on the way, found by the fault test.
    @Suite struct PostgresSyncFailureTests {
        /// The server's connection dies before the push's `COMMIT`: the sync throws, and the next sync pushes
        /// that transaction again instead of skipping it (the engine once counted a failed push as read).
        @Test func aPushThatFailsIsRetriedNotSkipped() throws {
            let namespace = PostgresServer.freshNamespace()
            let server = try PostgresDataStore(
                .init(
                    name: "server", schema: SyncNote.schema,
                    connectionString: try PostgresServer.connectionString + "?application_name=\(namespace)",
                    databaseSchema: namespace))
            let lab = try SyncLab(server: server)
            defer { lab.remove() }
            let device = try lab.device("a", schema: SyncNote.schema, models: [SyncNote.self])
            for key in ["first", "second"] {
                var note = SyncNote()
                note.persistentModelID = PersistentIdentifier(
                    storeIdentifier: "a", entityName: SyncNote.entityName, primaryKey: key)
                note.title = key
                _ = try device.store.save(
                    DataStoreSaveChangesRequest(
                        editingState: EditingState(author: "app"), inserted: [note.snapshot]))
            }
            // The first push's session is ended before it commits.
            server.beforeCommit = {
                server.beforeCommit = nil
                _ = try? PostgresServer.query(
                    """
                    SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity
                    WHERE state = 'idle in transaction' AND application_name = $1
                    """, [namespace])
            }
            #expect { try device.sync() } throws: { ($0 as? DataStoreError)?.code == .storageUnavailable }
            try device.sync()
            let pushed = try server.fetchHistory(HistoryDescriptor()).filter { $0.author == "device:a" }
            #expect(pushed.count == 2)
            let titles = try server.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<SyncNote>()))
                .snapshots
                .map { $0[attribute: "title"] }
            #expect(Set(titles) == [.string("first"), .string("second")])
        }
    }

    /// Bad input on the server side.
    @Suite struct PostgresSyncBadInputTests {
        /// A model row on the server is damaged (its stored snapshot is not JSON): the push that needs it fails
        /// with a typed error the status shows, the device's models are untouched, and once the row is
        /// repaired the same push goes through.
        @Test func aDamagedServerRowFailsThePushVisiblyAndChangesNothing() throws {
            let namespace = PostgresServer.freshNamespace()
            let server = try PostgresDataStore(
                .init(
                    name: "server", schema: SyncNote.schema,
                    connectionString: try PostgresServer.connectionString,
                    databaseSchema: namespace))
            let lab = try SyncLab(server: server)
            defer { lab.remove() }
            let device = try lab.device("a", schema: SyncNote.schema, models: [SyncNote.self])
            let id = PersistentIdentifier(
                storeIdentifier: "a", entityName: SyncNote.entityName, primaryKey: "n1")
            var note = SyncNote()
            note.persistentModelID = id
            note.title = "before"
            _ = try device.store.save(
                DataStoreSaveChangesRequest(
                    editingState: EditingState(author: "app"), inserted: [note.snapshot]))
            try device.sync()
            let saved = try PostgresServer.query(
                "SELECT snapshot FROM \"\(namespace)\".models WHERE primary_key = 'n1'")
            try PostgresServer.query(
                "UPDATE \"\(namespace)\".models SET snapshot = '{not json' WHERE primary_key = 'n1'")
            _ = try device.store.save(
                DataStoreSaveChangesRequest(
                    editingState: EditingState(author: "app"),
                    updated: [
                        DataStoreSnapshot(persistentIdentifier: id, values: ["title": .string("after")])
                    ]))
            let held = try SyncScenarioRows.rows(device.store)
            #expect(throws: DataStoreError.self) { try device.sync() }
            #expect(device.engine.status.lastError?.code != nil, "\(device.engine.status)")
            #expect(try SyncScenarioRows.rows(device.store) == held)
            try PostgresServer.query(
                "UPDATE \"\(namespace)\".models SET snapshot = $1 WHERE primary_key = 'n1'",
                [saved.first?.first ?? nil])
            try device.sync()
            #expect(device.engine.status.lastError == nil)
            #expect(try SyncScenarioRows.rows(server) == SyncScenarioRows.rows(device.store))
        }
    }

    /// A sync server with `schema` in a fresh namespace of the test server.
    func freshSyncServer(_ schema: Schema) throws -> PostgresDataStore {
        try PostgresDataStore(
            .init(
                name: "server", schema: schema, connectionString: try PostgresServer.connectionString,
                databaseSchema: PostgresServer.freshNamespace()))
    }

    /// The sync's conflict table (Docs/Sync.md), one test case per row, with a PostgreSQL server; the same rows
    /// as `SyncConflictTableTests`, which uses an in-memory server.
    @Suite struct PostgresSyncConflictTableTests {
        let table = SyncConflictTable(makeServer: freshSyncServer)

        @Test(arguments: SyncConflictRow.allCases)
        func row(_ row: SyncConflictRow) throws {
            let problems = try row.check(table)
            #expect(problems.isEmpty, "\(problems)")
        }
    }

    /// `SyncListScenario` with a PostgreSQL server: random list edits on two devices and the server's own app,
    /// for lists without previous values and with them (30 seeds each; `SyncListScenarioTests` runs 60 against
    /// an in-memory server), a device that only reads with its history deleted (20 seeds each), history read
    /// two transactions at a time (15 seeds each), and
    /// `SyncTaggingScenario`'s many-to-many notes and tags, without previous values and with them (30 seeds
    /// each).
    @Suite struct PostgresSyncListScenarioTests {
        let scenario = SyncListScenario(makeServer: freshSyncServer)

        @Test func listsConverge() throws {
            for seed in UInt64(0)..<30 {
                for problems in [
                    try scenario.run(SyncTrip.self, schema: SyncSchemas.trips, seed: seed).problems,
                    try scenario.run(Playlist.self, schema: SyncSchemas.music, seed: seed).problems,
                ] {
                    #expect(problems.isEmpty, "seed \(seed): \(problems.joined(separator: "\n"))")
                }
            }
        }

        /// A device that only reads, its history deleted every 3 rounds: its uploads write nothing but its
        /// cursors to the PostgreSQL server (20 seeds per spelling).
        @Test func aDeviceThatOnlyReadsNeverRevertsOthersEdits() throws {
            for seed in UInt64(0)..<20 {
                for problems in [
                    try scenario.run(
                        SyncTrip.self, schema: SyncSchemas.trips, seed: seed, trimDevicesEvery: 3,
                        secondDeviceOnlyReads: true
                    ).problems,
                    try scenario.run(
                        Playlist.self, schema: SyncSchemas.music, seed: seed, trimDevicesEvery: 3,
                        secondDeviceOnlyReads: true
                    ).problems,
                ] {
                    #expect(problems.isEmpty, "seed \(seed): \(problems.joined(separator: "\n"))")
                }
            }
        }

        /// The engines read history two transactions at a time, both histories trimmed now and then: the
        /// server's pages come from PostgreSQL (15 seeds per spelling).
        @Test func listsConvergeWhenHistoryIsReadTwoTransactionsAtATime() throws {
            for seed in UInt64(0)..<15 {
                for outcome in [
                    try scenario.run(
                        SyncTrip.self, schema: SyncSchemas.trips, seed: seed, trimServerEvery: 10,
                        trimDevicesEvery: 7, historyPageSize: 2),
                    try scenario.run(
                        Playlist.self, schema: SyncSchemas.music, seed: seed, trimServerEvery: 10,
                        trimDevicesEvery: 7, historyPageSize: 2),
                ] {
                    #expect(
                        outcome.problems.isEmpty, "seed \(seed): \(outcome.problems.joined(separator: "\n"))")
                    #expect(outcome.largestHistoryPage <= 2, "seed \(seed): \(outcome.largestHistoryPage)")
                }
            }
        }

        /// Many-to-many notes and tags (`SyncTaggingScenario`), 30 seeds, without previous values on the lists
        /// and with them.
        @Test func tagsConverge() throws {
            let tagging = SyncTaggingScenario(makeServer: freshSyncServer)
            let marking = SyncTaggingScenario(SyncMarkedNote.self, makeServer: freshSyncServer)
            for seed in UInt64(0)..<30 {
                for problems in [try tagging.run(seed: seed), try marking.run(seed: seed)] {
                    #expect(problems.isEmpty, "seed \(seed): \(problems.joined(separator: "\n"))")
                }
            }
        }
    }
#endif
