#if PostgreSQL
    import DataStoreCore
    import Foundation
    @testable import PostgresStorage
    import StoreTestSupport
    import Testing

    /// Bad input and a server that misbehaves: typed errors, nothing acknowledged lost, nothing partial visible.
    @Suite struct PostgresFailureTests {
        @Test func aServerThatCannotBeReachedIsStorageUnavailable() throws {
            // A port nothing listens on: the listener of a socket bound and closed at once.
            let configuration = PostgresStoreConfiguration(
                name: "entries", schema: Entry.schema,
                connectionString: "postgresql://postgres@127.0.0.1:1/postgres?connect_timeout=5")
            #expect {
                try PostgresDataStore(configuration)
            } throws: { error in
                guard let error = error as? DataStoreError, error.code == .storageUnavailable,
                    let underlying = error.underlyingError as? PostgresError
                else { return false }
                return underlying.isConnectionFailure && error.description.contains("entries")
            }
        }

        @Test func badConfigurationsAreRefusedBeforeConnecting() throws {
            let url = try PostgresServer.connectionString
            for configuration in [
                PostgresStoreConfiguration(
                    name: "e", connectionString: url, databaseSchema: "Robert'); DROP"),
                PostgresStoreConfiguration(name: "e", connectionString: url, databaseSchema: "9lives"),
                PostgresStoreConfiguration(name: "e", connectionString: url, maximumHistoryCount: 0),
                PostgresStoreConfiguration(name: "", connectionString: url),
            ] {
                #expect("\(configuration.databaseSchema)") {
                    try PostgresDataStore(configuration)
                } throws: { ($0 as? DataStoreError)?.code == .invalidConfiguration }
            }
        }

        /// The server ends the saving session after everything is written and before `COMMIT`: the save throws
        /// `storageUnavailable` (a connection failure), none of its rows or history is visible, and the next
        /// save on the same store instance connects anew and succeeds.
        @Test func aConnectionLostMidSaveLeavesNothingAndTheNextCallReconnects() throws {
            let namespace = PostgresServer.freshNamespace()
            let store = try PostgresDataStore(try PostgresServer.entryConfiguration(namespace: namespace))
            let saved = try store.save(
                DataStoreSaveChangesRequest(inserted: Entry.batch(store: "entries", writer: "kept", round: 0))
            )
            #expect(saved.token?.sequence == 1)
            // `pg_terminate_backend(pid, 5000)` waits until the session is gone, so COMMIT cannot overtake it.
            store.beforeCommit = {
                _ = try? PostgresServer.query(
                    """
                    SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity
                    WHERE state = 'idle in transaction' AND application_name = $1
                    """, [namespace])
            }
            #expect {
                try store.save(
                    DataStoreSaveChangesRequest(
                        inserted: Entry.batch(store: "entries", writer: "lost", round: 0)))
            } throws: { error in
                guard let error = error as? DataStoreError, error.code == .storageUnavailable else {
                    return false
                }
                return (error.underlyingError as? PostgresError)?.isConnectionFailure == true
            }
            store.beforeCommit = nil
            #expect(try store.fetchHistory(.init()).map(\.token.sequence) == [1])
            let keys = try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Entry>())).snapshots
                .map(\.persistentIdentifier.primaryKey)
            #expect(keys == ["kept-0-a", "kept-0-b", "kept-0-c"])
            let next = try store.save(
                DataStoreSaveChangesRequest(inserted: Entry.batch(store: "entries", writer: "next", round: 0))
            )
            #expect(next.token?.sequence == 2)
        }

        /// Tables written by a newer format version are refused with `unsupportedFormatVersion`, and left as
        /// they were.
        @Test func tablesOfANewerFormatAreRefused() throws {
            let namespace = PostgresServer.freshNamespace()
            let store = try PostgresDataStore(try PostgresServer.entryConfiguration(namespace: namespace))
            _ = try store.save(
                DataStoreSaveChangesRequest(inserted: Entry.batch(store: "entries", writer: "w", round: 0)))
            try PostgresServer.query("UPDATE \"\(namespace)\".format SET version = 99")
            #expect {
                try PostgresDataStore(try PostgresServer.entryConfiguration(namespace: namespace))
            } throws: { error in
                guard let error = error as? DataStoreError else { return false }
                return error.code == .unsupportedFormatVersion && error.formatVersion == 99
                    && error.supportedFormatVersion == StoreTables.formatVersion
            }
            let rows = try PostgresServer.query("SELECT count(*) FROM \"\(namespace)\".models")
            #expect(rows.first?.first == "3")
        }

        /// A token of the same store name in another database schema (another database, in effect) has another
        /// epoch: it expires instead of reading the wrong history. A token of another store name is refused as
        /// such.
        @Test func tokensFromAnotherDatabaseAreRejected() throws {
            let here = try PostgresDataStore(try PostgresServer.entryConfiguration())
            let there = try PostgresDataStore(try PostgresServer.entryConfiguration())
            for store in [here, there] {
                _ = try store.save(
                    DataStoreSaveChangesRequest(
                        inserted: Entry.batch(store: "entries", writer: "w", round: 0)))
            }
            let foreign = try there.currentToken()
            #expect {
                try here.fetchHistory(HistoryDescriptor(predicate: HistoryPredicates.after(foreign)))
            } throws: { ($0 as? DataStoreError)?.code == .historyTokenExpired }
            let renamed = PostgresHistoryToken(storeIdentifier: "other", epoch: foreign.epoch, sequence: 1)
            #expect {
                try here.fetchHistory(HistoryDescriptor(predicate: HistoryPredicates.after(renamed)))
            } throws: { ($0 as? DataStoreError)?.code == .historyTokenFromAnotherStore }
        }

        /// `maximumHistoryCount` keeps exactly the newest N transactions; a token before them expires, a token at
        /// the edge still works.
        @Test func retentionByCountKeepsTheNewestTransactions() throws {
            var configuration = try PostgresServer.entryConfiguration()
            configuration.maximumHistoryCount = 5
            let store = try PostgresDataStore(configuration)
            var tokens: [PostgresHistoryToken] = []
            for round in 0..<12 {
                let result = try store.save(
                    DataStoreSaveChangesRequest(
                        inserted: Entry.batch(store: "entries", writer: "w", round: round)))
                tokens.append(try #require(result.token))
            }
            #expect(try store.fetchHistory(.init()).map(\.token.sequence) == [8, 9, 10, 11, 12])
            #expect {
                try store.fetchHistory(HistoryDescriptor(predicate: HistoryPredicates.after(tokens[5])))
            } throws: { ($0 as? DataStoreError)?.code == .historyTokenExpired }
            let edge = try store.fetchHistory(
                HistoryDescriptor(predicate: HistoryPredicates.after(tokens[6])))
            #expect(edge.map(\.token.sequence) == [8, 9, 10, 11, 12])
            #expect(
                try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Entry>())).snapshots.count
                    == 36)
        }

        /// Another connection migrates the store to a new layout: an instance opened before keeps refusing with
        /// `schemaChanged` instead of writing rows in the old layout, and a new instance reads the migrated rows.
        @Test func anInstanceOpenedBeforeAMigrationRefusesToWrite() throws {
            let configuration = try PostgresServer.entryConfiguration()
            let before = try PostgresDataStore(configuration)
            _ = try before.save(
                DataStoreSaveChangesRequest(inserted: Entry.batch(store: "entries", writer: "w", round: 0)))
            var revised = Entry.schema
            revised.entities[0].attributes.append(
                Schema.Attribute(name: "colour", valueKind: "string", defaultValue: .string("grey")))
            try PostgresDataStore(configuration).migrate(to: revised, applying: nil)
            #expect {
                try before.save(
                    DataStoreSaveChangesRequest(
                        inserted: Entry.batch(store: "entries", writer: "w", round: 1)))
            } throws: { ($0 as? DataStoreError)?.code == .schemaChanged }
            #expect {
                try before.fetchHistory(.init())
            } throws: { ($0 as? DataStoreError)?.code == .schemaChanged }
            var reopened = configuration
            reopened.schema = revised
            let after = try PostgresDataStore(reopened)
            #expect(try after.recordedSchema() == revised)
            let rows = try after.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Entry>())).snapshots
            #expect(rows.count == 3 && rows.allSatisfy { $0[attribute: "colour"] == .string("grey") })
        }

        /// The feed's listening session is ended by the server: a save after that still reaches the feed (it
        /// reconnects and fetches after its token), and a save before the feed catches up is not delivered twice.
        @Test(.timeLimit(.minutes(1))) func aFeedSurvivesItsListenerBeingDisconnected() async throws {
            let namespace = PostgresServer.freshNamespace()
            let store = try PostgresDataStore(try PostgresServer.entryConfiguration(namespace: namespace))
            let mine = "SELECT pid FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND application_name = $1"
            let feed = Task {
                var seen: [Int64] = []
                for try await transaction in store.historyUpdates(after: nil) {
                    seen.append(transaction.token.sequence)
                    if seen.count == 3 { break }
                }
                return seen
            }
            _ = try store.save(
                DataStoreSaveChangesRequest(inserted: Entry.batch(store: "entries", writer: "a", round: 0)))
            let listening = try await waitUntil {
                try !PostgresServer.query(mine, [namespace]).isEmpty
            }
            #expect(listening)
            try PostgresServer.query(
                "SELECT pg_terminate_backend(pid, 5000) FROM (\(mine)) AS listeners", [namespace])
            for round in 1...2 {
                _ = try store.save(
                    DataStoreSaveChangesRequest(
                        inserted: Entry.batch(store: "entries", writer: "a", round: round)))
            }
            let seen = try await value(of: feed, within: .seconds(30))
            #expect(seen == [1, 2, 3])
        }
    }
#endif
