#if PostgreSQL
    import DataStoreCore
    import Foundation
    import InMemoryStorage
    import PostgresStorage
    import StoreTestSupport
    import Testing

    /// Fetches run in SQL answer exactly what Swift's evaluation answers, and an exact pushdown examines only
    /// the matching rows.
    @Suite struct PostgresFetchTests {
        typealias Generator = RandomPredicates.Generator

        /// 40 rounds of 40 random gadgets (NaN, ±0, infinity, canonically equivalent strings, `nil`s), each with
        /// 8 random predicates (one in four with a part SQL cannot run) under five sorts with offsets and limits:
        /// the PostgreSQL store returns the same models in the same order as the in-memory store, which
        /// evaluates every predicate in Swift.
        @Test func fetchesEqualSwiftEvaluationOverRandomDataAndPredicates() throws {
            let url = try PostgresServer.connectionString
            let namespace = PostgresServer.freshNamespace()
            let schema = Schema([Gadget.self])
            var random = Generator(seed: 2027)
            var compared = 0
            var answeredInSQL = 0
            for round in 0..<40 {
                let name = "gadgets\(round)"
                let postgres = try PostgresDataStore(
                    .init(name: name, schema: schema, connectionString: url, databaseSchema: namespace))
                let memory = try InMemoryDataStore(.init(name: name, schema: schema))
                let gadgets = (0..<40).map { RandomPredicates.randomGadget($0, &random, store: name) }
                let request = DataStoreSaveChangesRequest(inserted: gadgets.map(\.snapshot))
                _ = try postgres.save(request)
                _ = try memory.save(request)
                for index in 0..<8 {
                    let predicate = RandomPredicates.randomPredicate(&random, pushable: index % 4 != 3)
                    let sorts: [[SortDescriptor<Gadget>]] = [
                        [], [SortDescriptor(\.count)], [SortDescriptor(\.count, order: .reverse)],
                        [SortDescriptor(\.name, comparator: .lexical), SortDescriptor(\.count)],
                        [SortDescriptor(\.nickname), SortDescriptor(\.name, order: .reverse)],
                    ]
                    for sort in sorts {
                        var descriptor = FetchDescriptor<Gadget>(predicate: predicate, sortBy: sort)
                        if Bool.random(using: &random) {
                            descriptor.fetchOffset = Int.random(in: 0...5, using: &random)
                            descriptor.fetchLimit = Int.random(in: 0...10, using: &random)
                        }
                        let expected = try memory.fetch(DataStoreFetchRequest(descriptor: descriptor))
                            .snapshots
                        let examinedBefore = postgres.modelsExamined
                        let found = try postgres.fetch(DataStoreFetchRequest(descriptor: descriptor))
                            .snapshots
                        // SQL answered the whole fetch when it sent back only what the fetch returns.
                        if postgres.modelsExamined - examinedBefore == found.count { answeredInSQL += 1 }
                        #expect(
                            found.map(\.persistentIdentifier) == expected.map(\.persistentIdentifier),
                            "round \(round), predicate \(index), sort \(sort.count) keys")
                        #expect(found == expected, "round \(round): the snapshots read back differ")
                        compared += 1
                    }
                }
            }
            #expect(compared == 40 * 8 * 5)
            // Three in four predicates are pushable, and every sort here is: most fetches ran wholly in SQL.
            #expect(answeredInSQL >= compared / 2, "\(answeredInSQL) of \(compared) fetches ran in SQL")
        }

        /// Over 1,000 models, an equality on an attribute, a range, and an `IN` each examine only the models they
        /// return (counted by `modelsExamined`: rows the query sent back), because the whole fetch ran in SQL.
        @Test func anExactPushdownExaminesOnlyTheMatches() throws {
            let store = try PostgresDataStore(
                .init(
                    name: "gadgets", schema: Schema([Gadget.self]),
                    connectionString: try PostgresServer.connectionString,
                    databaseSchema: PostgresServer.freshNamespace()))
            var gadgets: [DataStoreSnapshot] = []
            for index in 0..<1_000 {
                var gadget = Gadget()
                gadget.persistentModelID = PersistentIdentifier(
                    storeIdentifier: "gadgets", entityName: "Gadget", primaryKey: "g\(index)")
                gadget.count = index
                gadget.name = "n\(index % 100)"
                gadgets.append(gadget.snapshot)
            }
            _ = try store.save(DataStoreSaveChangesRequest(inserted: gadgets))
            let names = ["n3", "n7"]
            let descriptors: [(FetchDescriptor<Gadget>, Int)] = [
                (FetchDescriptor(predicate: #Predicate { $0.count == 417 }), 1),
                (FetchDescriptor(predicate: #Predicate { $0.count >= 10 && $0.count < 25 }), 15),
                (FetchDescriptor(predicate: #Predicate { names.contains($0.name) }), 20),
                (FetchDescriptor(sortBy: [SortDescriptor(\.count, order: .reverse)], fetchLimit: 3), 3),
            ]
            for (descriptor, matches) in descriptors {
                let before = store.modelsExamined
                let found = try store.fetch(DataStoreFetchRequest(descriptor: descriptor)).snapshots
                #expect(found.count == matches)
                #expect(store.modelsExamined - before == matches)
            }
            // A predicate SQL cannot run is finished in Swift over the rows the rest narrowed to.
            let before = store.modelsExamined
            let found = try store.fetch(
                DataStoreFetchRequest(
                    descriptor: FetchDescriptor<Gadget>(
                        predicate: #Predicate { $0.count < 100 && $0.name.contains("9") }))
            ).snapshots
            #expect(found.count == 19)
            #expect(store.modelsExamined - before == 100)
        }
    }
#endif

#if PostgreSQL
    /// A save reads only the rows it names: 20 saves over 2,400 stored models fetch a few tuples each from the
    /// models and unique values (PostgreSQL's own counters: `seq_tup_read + idx_tup_fetch`), not the table,
    /// even with the generic plans PostgreSQL caches for prepared statements. (The first version joined with
    /// `unnest`, which a generic plan ran as a scan of the whole table.)
    @Suite struct PostgresSaveCostTests {
        @Test(.timeLimit(.minutes(1))) func savesReadOnlyTheRowsTheyName() async throws {
            let namespace = PostgresServer.freshNamespace()
            var configuration = try PostgresServer.entryConfiguration(namespace: namespace)
            // Generic plans from the first execution, as a long-lived connection ends up with.
            configuration.connectionString += "&options=-c%20plan_cache_mode%3Dforce_generic_plan"
            func tuplesRead() async throws -> [String: Int] {
                // Statistics reach the shared counters when a session ends: wait for the store's sessions to end.
                _ = try await waitUntil {
                    try PostgresServer.query(
                        "SELECT 1 FROM pg_stat_activity WHERE application_name = $1", [namespace]
                    ).isEmpty
                }
                let rows = try PostgresServer.query(
                    """
                    SELECT relname, coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) FROM pg_stat_user_tables
                    WHERE schemaname = $1
                    """, [namespace])
                var counts: [String: Int] = [:]
                for row in rows { counts[row[0] ?? ""] = Int(row[1] ?? "") ?? -1 }
                return counts
            }
            do {
                let store = try PostgresDataStore(configuration)
                var entries: [DataStoreSnapshot] = []
                for round in 0..<800 { entries += Entry.batch(store: "entries", writer: "w", round: round) }
                _ = try store.save(DataStoreSaveChangesRequest(inserted: entries))
            }
            let before = try await tuplesRead()
            do {
                let store = try PostgresDataStore(configuration)
                for round in 0..<20 {
                    var updated = Entry.batch(store: "entries", writer: "w", round: round)
                    for index in updated.indices {
                        updated[index].values["round"] = .integer(Int64(round + 100))
                    }
                    _ = try store.save(
                        DataStoreSaveChangesRequest(
                            inserted: Entry.batch(store: "entries", writer: "n", round: round),
                            updated: updated,
                            deleted: Entry.batch(store: "entries", writer: "w", round: round + 20)))
                }
            }
            let after = try await tuplesRead()
            // Each save names nine models and six unique values: a few dozen tuples at most, where one scan of
            // either table would read 2,400.
            for table in ["models", "unique_values"] {
                let read = (after[table] ?? 0) - (before[table] ?? 0)
                #expect(before[table] != nil && read <= 20 * 40, "\(table): \(read) tuples read by 20 saves")
            }
        }
    }
#endif
