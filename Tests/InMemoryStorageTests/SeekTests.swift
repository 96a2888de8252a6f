import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import Testing

/// "After my token" must seek, not scan: counted through the store's statistics, never a clock.
@Suite struct SeekTests {
    static let historySize = 100_000

    /// A store with `historySize` one-change transactions, alternating authors.
    static func makeLargeStore() throws -> (InMemoryDataStore, [InMemoryHistoryToken]) {
        let store = try makeNoteStore()
        var tokens: [InMemoryHistoryToken] = []
        tokens.reserveCapacity(historySize)
        for index in 0..<historySize {
            tokens.append(
                try saveNote("n\(index)", to: store, author: index.isMultiple(of: 2) ? "app" : "widget"))
        }
        return (store, tokens)
    }

    @Test func fetchAfterATokenNearTheEndExaminesOnlyTheCandidatesAfterIt() throws {
        let (store, tokens) = try Self.makeLargeStore()
        let token = tokens[Self.historySize - 101]
        let before = store.statistics
        let tail = try store.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > token }))
        let work = store.statistics.examinedTransactions - before.examinedTransactions
        let evaluations = store.statistics.predicateEvaluations - before.predicateEvaluations
        #expect(tail.map(\.token) == Array(tokens.suffix(100)))
        #expect(work <= tail.count + 2)
        #expect(evaluations <= tail.count + 2)

        // With an author bound as well, the author check runs before the predicate.
        let widget = "widget"
        let start = store.statistics
        let widgetTail = try store.fetchHistory(
            HistoryDescriptor(predicate: #Predicate { $0.token > token && $0.author == widget }))
        #expect(widgetTail.count == 50)
        #expect(store.statistics.examinedTransactions - start.examinedTransactions <= 100 + 2)
        #expect(store.statistics.predicateEvaluations - start.predicateEvaluations <= widgetTail.count + 2)

        // The same seek through a model container: a seek per store plus the merge.
        let limited = try store.fetchHistory(
            HistoryDescriptor(predicate: #Predicate { $0.token > token }, fetchLimit: 5))
        #expect(limited.map(\.token) == Array(tokens.suffix(100).prefix(5)))
    }

    @Test func aContainerResumesFromACompositeTokenBySeeking() throws {
        let container = try makeNoteContainer()
        for index in 0..<2_000 {
            let writer = ModelContext(container)
            writer.insert(Note(title: "c\(index)"))
            try writer.save()
        }
        let context = ModelContext(container)
        let all = try context.fetchHistory(HistoryDescriptor())
        #expect(all.count == 2_000)
        let token = all[1_989].token
        let store = try #require(container.store("notes", as: InMemoryDataStore.self))
        let before = store.statistics
        let tail = try context.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > token }))
        #expect(tail.map(\.storeSequence) == Array(1_991...2_000))
        // Both the store's seek and the container's merge touched only the tail.
        #expect(store.statistics.examinedTransactions - before.examinedTransactions <= tail.count + 2)
        #expect(context.lastHistoryStatistics.examinedTransactions <= tail.count + 2)
    }
}
