#if PostgreSQL
    import DataStoreCore
    import Foundation
    import PostgresStorage
    import StoreTestSupport
    import Testing

    /// A writer process killed with SIGKILL in the middle of its saves: the server rolls the open transaction
    /// back, and every save the writer acknowledged is there.
    @Suite struct PostgresCrashTests {
        /// 20 rounds: a `datastore-test-process write-loop postgres` child saves three entries per transaction and
        /// prints "ACK <sequence>" after each; it is killed at a random moment (often mid-save). After each kill:
        /// every acknowledged sequence is in history, history is 1…latest without gaps, and the models are
        /// exactly three per transaction (no partial save). The next round's writer then takes the store's lock,
        /// which it could not if the killed writer's transaction were still open.
        @Test(.timeLimit(.minutes(5))) func killNineMidTransactionLosesNoAcknowledgedSave() throws {
            let namespace = PostgresServer.freshNamespace("crash")
            let configuration = try PostgresServer.entryConfiguration(namespace: namespace)
            _ = try PostgresDataStore(configuration)
            let harness = CrashHarness(
                writerArguments: ["write-loop", "postgres", namespace, "crasher"], rounds: 20)
            try harness.run(seed: 11) { round, acknowledged in
                let store = try PostgresDataStore(configuration)
                let history = try store.fetchHistory(.init())
                let latest = history.last?.token.sequence ?? 0
                #expect(latest >= (acknowledged.max() ?? 0), "round \(round.index)")
                #expect(history.map(\.token.sequence) == Array((1...max(latest, 1)).prefix(Int(latest))))
                let models = try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Entry>()))
                #expect(models.snapshots.count == Int(latest) * 3, "round \(round.index)")
                #expect(Set(acknowledged).isSubset(of: Set(history.map(\.token.sequence))))
            }
        }
    }
#endif
