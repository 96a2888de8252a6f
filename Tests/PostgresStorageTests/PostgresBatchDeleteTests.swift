#if PostgreSQL
    import DataStoreCore
    import Foundation
    import PostgresStorage
    import StoreTestSupport
    import Testing

    /// The PostgreSQL store's batch delete selects its matches in SQL: a predicate the pushdown runs wholly
    /// brings back only the matching rows (counted by the store), and the deletes commit as one transaction.
    @Suite struct PostgresBatchDeleteTests {
        @Test func aPushedDownPredicateReadsOnlyTheMatchesAndDeletesThemInOneTransaction() throws {
            let url = try PostgresServer.connectionString
            let store = try PostgresDataStore(
                .init(
                    name: "gadgets", schema: Schema([Gadget.self]), connectionString: url,
                    databaseSchema: PostgresServer.freshNamespace()))
            let gadgets = (0..<200).map { index in
                var gadget = Gadget()
                gadget.persistentModelID = PersistentIdentifier(
                    storeIdentifier: "gadgets", entityName: "Gadget", primaryKey: "g\(index)")
                gadget.count = index
                return gadget
            }
            _ = try store.save(DataStoreSaveChangesRequest(inserted: gadgets.map(\.snapshot)))
            let before = store.modelsExamined
            let historyBefore = try store.fetchHistory(HistoryDescriptor()).count
            try store.delete(
                DataStoreBatchDeleteRequest(
                    predicate: #Predicate<Gadget> { $0.count < 5 },
                    editingState: EditingState(author: "sweep")))
            // The five matches, not the 200 rows.
            #expect(store.modelsExamined - before == 5)
            let history = try store.fetchHistory(HistoryDescriptor())
            #expect(history.count == historyBefore + 1)
            #expect(history.last?.author == "sweep")
            #expect(
                Set(history.last?.changes.map(\.changedPersistentIdentifier.primaryKey) ?? [])
                    == Set((0..<5).map { "g\($0)" }))
            #expect(
                try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Gadget>())).snapshots.count
                    == 195)
        }
    }
#endif
