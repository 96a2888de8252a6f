import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import Testing

/// A limited container history fetch asks each store for bounded batches, instead of reading everything.
@Suite struct ContainerHistoryPagingTests {
    /// Two in-memory stores with `count` single-insert transactions each, interleaved.
    func filledContainer(_ count: Int) throws -> (ModelContainer, InMemoryDataStore, InMemoryDataStore) {
        let notes = try openStore("alpha", [Note.self])
        let people = try openStore("beta", [Person.self])
        let container = try ModelContainer(
            for: [Note.self, Person.self],
            configurations: [
                ModelConfiguration(store: notes, for: [Note.self]),
                ModelConfiguration(store: people, for: [Person.self]),
            ])
        for index in 0..<count {
            // A context per save, so that saving stays cheap.
            let context = ModelContext(container)
            context.insert(Note(title: "n\(index)"))
            try context.save()
            context.insert(Person(name: "p\(index)"))
            try context.save()
        }
        return (container, notes, people)
    }

    func examined(_ stores: InMemoryDataStore...) -> Int {
        stores.reduce(0) { $0 + $1.statistics.examinedTransactions }
    }

    @Test func aLimitedFetchExaminesOLimitTimesStores() throws {
        let (container, notes, people) = try filledContainer(1_500)
        let context = ModelContext(container)
        let all = try context.fetchHistory(.init())
        #expect(all.count == 3_000)

        var before = examined(notes, people)
        let first = try context.fetchHistory(HistoryDescriptor(fetchLimit: 10))
        #expect(first.map(\.token) == all.prefix(10).map(\.token))
        #expect(examined(notes, people) - before <= 4 * 10 * 2)

        // After a token in the middle: the same bound, and the same answer as a filter of everything.
        let token = all[2_000].token
        before = examined(notes, people)
        let page = try context.fetchHistory(
            HistoryDescriptor(predicate: #Predicate { $0.token > token }, fetchLimit: 10))
        #expect(page.map(\.token) == all[2_001..<2_011].map(\.token))
        #expect(examined(notes, people) - before <= 4 * 10 * 2)
    }

    @Test func deletingOldHistoryThroughTheContainerReadsOnlyWhatItDeletes() throws {
        let (container, notes, people) = try filledContainer(1_000)
        let context = ModelContext(container)
        let token = try context.fetchHistory(HistoryDescriptor(fetchLimit: 20)).last!.token
        let before = examined(notes, people)
        try context.deleteHistory(HistoryDescriptor(predicate: #Predicate { $0.token <= token }))
        #expect(examined(notes, people) - before <= 4 * 20)
        let remaining = try context.fetchHistory(.init())
        #expect(remaining.count == 2_000 - 20)
        #expect(remaining.allSatisfy { !($0.token <= token) })
    }
}

/// Apple's latest-token pattern on a container, answered from the newest end.
@Suite struct LatestTokenTests {
    @Test func theNewestTransactionIsReadWithoutSortingHistory() throws {
        let notes = try openStore("alpha", [Note.self])
        let container = try ModelContainer(
            for: [Note.self], configurations: [ModelConfiguration(store: notes, for: [Note.self])])
        for index in 0..<2_000 {
            let context = ModelContext(container)
            context.author = index.isMultiple(of: 500) ? "widget" : "app"
            context.insert(Note(title: "n\(index)"))
            try context.save()
        }
        let context = ModelContext(container)
        let all = try context.fetchHistory(.init())

        var before = notes.statistics.examinedTransactions
        var latest = HistoryDescriptor<ContainerHistoryTransaction>()
        latest.sortBy = [.init(\.transactionIdentifier, order: .reverse)]
        latest.fetchLimit = 1
        #expect(try context.fetchHistory(latest).map(\.token) == [all[1_999].token])
        // The newest position and the one transaction, not 2,000.
        #expect(notes.statistics.examinedTransactions - before <= 4)

        // With a predicate: the newest "widget" transaction (index 1,500) is 500 back; about as many are read.
        before = notes.statistics.examinedTransactions
        latest.predicate = #Predicate { $0.author == "widget" }
        latest.fetchLimit = 2
        let widget = try context.fetchHistory(latest)
        #expect(widget.map(\.token) == [all[1_500].token, all[1_000].token])
        #expect(notes.statistics.examinedTransactions - before <= 1_100)

        // The same answers as sorting everything.
        let sortedAll = all.filter { $0.author == "widget" }.sorted {
            $0.transactionIdentifier > $1.transactionIdentifier
        }
        #expect(widget.map(\.token) == sortedAll.prefix(2).map(\.token))

        // After history was deleted, the scan stops at the oldest retained transaction.
        let cut = all[1_995].token
        try context.deleteHistory(HistoryDescriptor(predicate: #Predicate { $0.token <= cut }))
        latest.predicate = #Predicate { $0.author == "widget" }
        #expect(try context.fetchHistory(latest).isEmpty)
        latest.predicate = nil
        latest.fetchLimit = 10
        #expect(try context.fetchHistory(latest).map(\.token) == all[1_996...].reversed().map(\.token))
    }
}
