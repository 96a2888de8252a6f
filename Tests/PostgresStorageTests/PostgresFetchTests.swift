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
                    // Swift's own answer, independent of any store (the in-memory store decides exact
                    // predicates on the rows' values too).
                    let matching = try Set(
                        gadgets.filter { try predicate.evaluate($0) }.map(\.persistentModelID))
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
                        if descriptor.fetchLimit == nil && descriptor.fetchOffset == nil {
                            #expect(
                                Set(found.map(\.persistentIdentifier)) == matching,
                                "round \(round), predicate \(index): not what Predicate.evaluate selects")
                        }
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
