import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import Testing

@Suite struct MergedHistoryTests {
    /// One random save: inserts, updates or deletes in one randomly chosen store, by a random author.
    static func randomSave(in container: ModelContainer, using random: inout SplitMix64) throws {
        let context = ModelContext(container)
        context.author = Bool.random(using: &random) ? "widget" : "app"
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                context.insert(Note(title: "n\(random.next() % 1000)"))
            }
            if Bool.random(using: &random),
                let note = try context.fetch(FetchDescriptor<Note>(fetchLimit: 1)).first
            {
                note.body += "!"
            }
        case 1:
            let people = try context.fetch(FetchDescriptor<Person>())
            if let person = people.randomElement(using: &random), Bool.random(using: &random) {
                if Bool.random(using: &random) { person.age += 1 } else { context.delete(person) }
            } else {
                context.insert(Person(name: "p\(random.next() % 50)"))  // sometimes an upsert
            }
        default:
            context.insert(Sample(value: Double(random.next() % 100)))
        }
        try context.save()
    }

    /// Reads everything after `token` in random page sizes, round-tripping the token through JSON each time.
    static func consume(
        _ container: ModelContainer, after token: inout CompositeHistoryToken?, using random: inout SplitMix64
    ) throws -> [ContainerHistoryTransaction] {
        let context = ModelContext(container)
        var consumed: [ContainerHistoryTransaction] = []
        while true {
            var descriptor = HistoryDescriptor<ContainerHistoryTransaction>(
                fetchLimit: Int.random(in: 1...7, using: &random))
            if let resume = token {
                descriptor.predicate = #Predicate { $0.token > resume }
            }
            let page = try context.fetchHistory(descriptor)
            guard let last = page.last else { return consumed }
            consumed += page
            token = try roundTrip(last.token)
        }
    }

    @Test(arguments: 0..<200 as Range<UInt64>)
    func randomInterleavingsAreReadExactlyOnceInMergedOrder(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let stores = try ThreeStores()
        defer { stores.remove() }
        let container = try stores.container()

        // Phase 1: saves, then paged reading: exactly the full merged stream, in order.
        for _ in 0..<Int.random(in: 5...30, using: &random) {
            try Self.randomSave(in: container, using: &random)
        }
        var token: CompositeHistoryToken?
        let first = try Self.consume(container, after: &token, using: &random)
        let full = try ModelContext(container).fetchHistory(HistoryDescriptor())
        #expect(first.map(TransactionKey.init) == full.map(TransactionKey.init))
        #expect(first.map(\.token) == full.map(\.token))

        // Phase 2: saves and reads interleaved: every new transaction exactly once, each store in order.
        var second: [ContainerHistoryTransaction] = []
        for _ in 0..<Int.random(in: 1...5, using: &random) {
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                try Self.randomSave(in: container, using: &random)
            }
            second += try Self.consume(container, after: &token, using: &random)
        }
        let everything = try ModelContext(container).fetchHistory(HistoryDescriptor())
        let expected = everything.dropFirst(full.count).map(TransactionKey.init)
        #expect(Set(second.map(TransactionKey.init)) == Set(expected))
        #expect(second.count == expected.count)
        for store in ["alpha", "beta", "gamma"] {
            let ids = second.filter { $0.storeIdentifier == store }.map(\.transactionIdentifier)
            #expect(ids == ids.sorted())
        }
        // Tokens along what the consumer read only grow.
        let tokens = (first + second).map(\.token)
        #expect(zip(tokens, tokens.dropFirst()).allSatisfy { $0 < $1 })
    }

    @Test func aTokenAndAuthorPredicateMatchesAFilterOverTheFullStream() throws {
        var random = SplitMix64(seed: 7)
        let stores = try ThreeStores()
        defer { stores.remove() }
        let container = try stores.container()
        for _ in 0..<60 { try Self.randomSave(in: container, using: &random) }
        let context = ModelContext(container)
        let full = try context.fetchHistory(HistoryDescriptor())
        let token = full[17].token
        let author = "widget"
        let sought = try context.fetchHistory(
            HistoryDescriptor(predicate: #Predicate { $0.token > token && $0.author == author }))
        let filtered = full[18...].filter { $0.author == "widget" }
        #expect(sought.map(TransactionKey.init) == filtered.map(TransactionKey.init))
        #expect(!sought.isEmpty)
    }

    @Test func oneSaveTouchingSeveralStoresWritesOneTransactionPerStore() throws {
        let stores = try ThreeStores()
        defer { stores.remove() }
        let container = try stores.container()
        let context = ModelContext(container)
        context.insert(Note(title: "a"))
        context.insert(Note(title: "b"))
        context.insert(Person(name: "Ada"))
        context.insert(Sample(value: 1))
        try context.save()
        let history = try context.fetchHistory(HistoryDescriptor())
        #expect(history.count == 3)
        #expect(Set(history.map(\.storeIdentifier)) == ["alpha", "beta", "gamma"])
        #expect(history.first { $0.storeIdentifier == "alpha" }?.changes.count == 2)
    }

    @Test func aStoreThatFailsAfterAnotherCommittedLeavesItsPartPending() throws {
        let stores = try ThreeStores()
        defer { stores.remove() }
        let container = try stores.container()
        let setup = ModelContext(container)
        setup.insert(Person(name: "Ada"))
        setup.insert(Person(name: "Grace"))
        try setup.save()

        let context = ModelContext(container)
        let grace = try #require(
            try context.fetch(FetchDescriptor<Person>(predicate: #Predicate { $0.name == "Grace" })).first)
        context.insert(Note(title: "committed"))
        grace.name = "Ada"  // the people store refuses: another person holds this unique name
        #expect(throws: DataStoreError.self) { try context.save() }

        // The notes store committed its part; the people store committed nothing.
        let history = try context.fetchHistory(HistoryDescriptor())
        #expect(history.map(\.storeIdentifier) == ["beta", "alpha"])
        #expect(context.hasChanges)
        #expect(context.insertedModelsArray.isEmpty)
        #expect(context.changedModelsArray.count == 1)

        grace.name = "Grace Hopper"
        try context.save()
        let after = try context.fetchHistory(HistoryDescriptor())
        #expect(after.map(\.storeIdentifier) == ["beta", "alpha", "beta"])
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Note>()) == 1)
        #expect(!context.hasChanges)
    }
}
