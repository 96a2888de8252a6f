import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import Testing

@Suite struct HistoryOrderTests {
    @Test func transactionsAndChangesComeBackInCommitOrder() throws {
        let container = try makeNoteContainer()
        let context = ModelContext(container)
        var expectedTitles: [[String]] = []
        for batch in 0..<5 {
            let titles = (0..<3).map { "note \(batch)-\($0)" }
            for title in titles { context.insert(Note(title: title)) }
            try context.save()
            expectedTitles.append(titles)
        }
        let transactions = try context.fetchHistory(HistoryDescriptor())
        #expect(transactions.count == 5)
        #expect(transactions.map(\.storeSequence) == [1, 2, 3, 4, 5])
        let tokens = transactions.map(\.token)
        #expect(zip(tokens, tokens.dropFirst()).allSatisfy { $0 < $1 })
        // Each transaction's changes are its inserts in insertion order.
        let notes = try context.fetch(FetchDescriptor<Note>())
        let titleByID = Dictionary(uniqueKeysWithValues: notes.map { ($0.persistentModelID, $0.title) })
        let seenTitles = transactions.map {
            $0.changes.map { titleByID[$0.changedPersistentIdentifier] ?? "?" }
        }
        #expect(seenTitles == expectedTitles)
        // Change identifiers grow in commit order across the whole store.
        let changeIDs = transactions.flatMap(\.changes).map(\.changeIdentifier)
        #expect(changeIDs == changeIDs.sorted() && Set(changeIDs).count == changeIDs.count)
    }

    @Test func sortByReverseAndFetchLimit() throws {
        let store = try makeNoteStore()
        let tokens = try (1...10).map { try saveNote("n\($0)", to: store) }
        let newestThree = try store.fetchHistory(
            HistoryDescriptor(
                sortBy: [SortDescriptor(\.transactionIdentifier, order: .reverse)], fetchLimit: 3))
        #expect(newestThree.map(\.token) == Array(tokens.suffix(3).reversed()))

        let firstTwo = try store.fetchHistory(HistoryDescriptor(fetchLimit: 2))
        #expect(firstTwo.map(\.token) == Array(tokens.prefix(2)))

        let after = tokens[6]
        let rest = try store.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > after }))
        #expect(rest.map(\.token) == Array(tokens[7...]))

        let zero = try store.fetchHistory(HistoryDescriptor(fetchLimit: 0))
        #expect(zero.isEmpty)
    }

    @Test func timestampBoundsSelectTheSameTransactionsAsAFilter() throws {
        let store = try makeNoteStore()
        for index in 0..<50 { try saveNote("t\(index)", to: store) }
        let all = try store.fetchHistory(HistoryDescriptor())
        let middle = all[20].timestamp
        let selected = try store.fetchHistory(
            HistoryDescriptor(predicate: #Predicate { $0.timestamp >= middle }))
        #expect(selected.map(\.token) == all.filter { $0.timestamp >= middle }.map(\.token))
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp })
    }
}
