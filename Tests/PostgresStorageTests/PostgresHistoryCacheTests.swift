#if PostgreSQL
    import DataStoreCore
    import Foundation
    @testable import PostgresStorage
    import StoreTestSupport
    import Testing

    /// An instance keeps the newest transactions it wrote or read decoded, and a read of the tail takes them from
    /// there (the server sends the positions only). The cache must never answer differently from the table.
    @Suite struct PostgresHistoryCacheTests {
        @Test(.timeLimit(.minutes(1))) func aTailThisInstanceWroteOrReadIsNotDecodedAgain() throws {
            let configuration = try PostgresServer.entryConfiguration()
            let writer = try PostgresDataStore(configuration)
            for round in 0..<30 {
                _ = try writer.save(
                    DataStoreSaveChangesRequest(
                        inserted: Entry.batch(store: "entries", writer: "w", round: round)))
            }
            let token = PostgresHistoryToken(
                storeIdentifier: "entries", epoch: try writer.currentToken().epoch, sequence: 10)
            let afterToken = HistoryDescriptor<PostgresHistoryTransaction>(
                predicate: #Predicate { $0.token > token })

            let written = try writer.fetchHistory(afterToken)
            #expect(written.map(\.token.sequence) == Array(11...30))
            #expect(writer.historyRowsDecoded == 0, "its own saves are cached")

            let reader = try PostgresDataStore(configuration)
            let read = try reader.fetchHistory(afterToken)
            #expect(reader.historyRowsDecoded == 20)
            #expect(summary(read) == summary(written))
            #expect(summary(try reader.fetchHistory(afterToken)) == summary(written))
            #expect(reader.historyRowsDecoded == 20, "the second read decodes nothing")

            // Another instance's save is decoded once by the writer, which caches it after its own.
            _ = try reader.save(
                DataStoreSaveChangesRequest(inserted: Entry.batch(store: "entries", writer: "r", round: 0)))
            let both = try writer.fetchHistory(afterToken)
            #expect(both.map(\.token.sequence) == Array(11...31))
            #expect(writer.historyRowsDecoded == 1)
            #expect(summary(both) == summary(try reader.fetchHistory(afterToken)))
        }

        /// Random saves from two cached instances, history deleted by author and by count, erases, and reads
        /// after random tokens with random limits and author bounds, each answered by both cached instances and
        /// by one that decodes every row: all three always agree, errors included. The caches are small, so
        /// they drop their oldest transactions often.
        @Test(.timeLimit(.minutes(2))) func theCacheNeverAnswersDifferentlyFromTheTable() throws {
            var configuration = try PostgresServer.entryConfiguration()
            configuration.recentHistoryChanges = 24
            let first = try PostgresDataStore(configuration)
            let second = try PostgresDataStore(configuration)
            var uncached = configuration
            uncached.recentHistoryChanges = 0
            let reference = try PostgresDataStore(uncached)
            var generator = RandomPredicates.Generator(seed: 17)
            var round = 0
            var comparisons = 0
            for _ in 0..<300 {
                let writer = generator.next() % 2 == 0 ? first : second
                switch generator.next() % 20 {
                case 0..<11:
                    round += 1
                    _ = try writer.save(
                        DataStoreSaveChangesRequest(
                            editingState: EditingState(author: "a\(generator.next() % 3)"),
                            inserted: Entry.batch(store: "entries", writer: "w", round: round)))
                case 11:
                    let author = "a\(generator.next() % 3)"
                    try writer.deleteHistory(
                        HistoryDescriptor<PostgresHistoryTransaction>(
                            predicate: #Predicate { $0.author == author }))
                case 12:
                    let latest = try writer.currentToken()
                    let cutoff = PostgresHistoryToken(
                        storeIdentifier: "entries", epoch: latest.epoch,
                        sequence: max(0, latest.sequence - Int64(generator.next() % 12)))
                    // A cutoff before what was deleted already expired: the error is the store's answer.
                    try? writer.deleteHistory(
                        HistoryDescriptor<PostgresHistoryTransaction>(
                            predicate: #Predicate { $0.token <= cutoff }))
                case 13 where generator.next() % 4 == 0:
                    try writer.erase()
                default:
                    let latest = try reference.currentToken()
                    let token = PostgresHistoryToken(
                        storeIdentifier: "entries", epoch: latest.epoch,
                        sequence: max(0, latest.sequence - Int64(generator.next() % 40)))
                    var descriptor = HistoryDescriptor<PostgresHistoryTransaction>(
                        predicate: #Predicate { $0.token > token })
                    if generator.next() % 3 == 0 {
                        let author = "a\(generator.next() % 3)"
                        descriptor = HistoryDescriptor(
                            predicate: #Predicate { $0.token > token && $0.author == author })
                    }
                    if generator.next() % 2 == 0 { descriptor.fetchLimit = Int(generator.next() % 15) + 1 }
                    let expected = outcome { try reference.fetchHistory(descriptor) }
                    #expect(outcome { try first.fetchHistory(descriptor) } == expected)
                    #expect(outcome { try second.fetchHistory(descriptor) } == expected)
                    comparisons += 1
                }
            }
            #expect(comparisons > 50)
            #expect(first.historyRowsDecoded < reference.historyRowsDecoded)
            #expect(second.historyRowsDecoded < reference.historyRowsDecoded)
        }

        /// A fetch that needs more than the first batch (512 transactions) runs again batch by batch inside one
        /// transaction, and returns everything in order, from a cold instance and from the writer alike.
        @Test(.timeLimit(.minutes(1))) func aFetchLongerThanOneBatchReturnsEverythingInOrder() throws {
            let configuration = try PostgresServer.entryConfiguration()
            let writer = try PostgresDataStore(configuration)
            for round in 0..<600 {
                _ = try writer.save(
                    DataStoreSaveChangesRequest(
                        inserted: [Entry.batch(store: "entries", writer: "w", round: round)[0]]))
            }
            let cold = try PostgresDataStore(configuration)
            for store in [writer, cold] {
                let all = try store.fetchHistory(HistoryDescriptor<PostgresHistoryTransaction>())
                #expect(all.map(\.token.sequence) == Array(1...600))
                let epoch = try store.currentToken().epoch
                let token = PostgresHistoryToken(storeIdentifier: "entries", epoch: epoch, sequence: 50)
                let later = try store.fetchHistory(
                    HistoryDescriptor<PostgresHistoryTransaction>(
                        predicate: #Predicate { $0.token > token && $0.changes.count == 1 }))
                #expect(later.map(\.token.sequence) == Array(51...600))
            }
        }

        /// What a fetch returned, comparable: every field of every transaction and change, or the error's code.
        private func outcome(_ fetch: () throws -> [PostgresHistoryTransaction]) -> String {
            do {
                return summary(try fetch())
            } catch let error as DataStoreError {
                return "error \(error.code)"
            } catch {
                return "error \(error)"
            }
        }

        private func summary(_ transactions: [PostgresHistoryTransaction]) -> String {
            transactions.map { transaction in
                let changes = transaction.changes.map { change in
                    let values = change.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                    return
                        "\(change.changeIdentifier)/\(change.transactionIdentifier) \(change.kind) "
                        + "\(change.changedPersistentIdentifier.primaryKey) \(change.updatedAttributes) "
                        + "\(values) \(change.tombstone.map { $0.sorted { $0.key < $1.key }.description } ?? "-")"
                }
                return
                    "\(transaction.token) \(transaction.timestamp.timeIntervalSinceReferenceDate) "
                    + "\(transaction.author ?? "-") \(transaction.bundleIdentifier) \(transaction.processIdentifier) "
                    + changes.joined(separator: "; ")
            }.joined(separator: "\n")
        }
    }
#endif
