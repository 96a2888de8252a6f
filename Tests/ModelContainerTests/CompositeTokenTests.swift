import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import JSONFileStorage
import Testing
import TimeSeriesStorage

@Suite struct CompositeTokenTests {
    @Test func addingAStoreKeepsOldTokensValid() throws {
        let stores = try ThreeStores()
        defer { stores.remove() }
        let before = try stores.container(including: false)
        let writer = ModelContext(before)
        writer.insert(Note(title: "old"))
        writer.insert(Person(name: "Ada"))
        try writer.save()
        let token = try #require(try ModelContext(before).fetchHistory(HistoryDescriptor()).last?.token)
        #expect(token.components.keys.sorted() == ["alpha", "beta"])

        // The same stores plus a third; the third has history of its own already.
        let after = try stores.container(including: true)
        let context = ModelContext(after)
        context.insert(Sample(value: 1))
        try context.save()
        context.insert(Sample(value: 2))
        context.insert(Note(title: "new"))
        try context.save()

        let resumed = try context.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > token }))
        #expect(resumed.map(\.storeIdentifier) == ["gamma", "alpha", "gamma"])
        #expect(resumed.last?.token.components.keys.sorted() == ["alpha", "beta", "gamma"])
    }

    @Test func anExpiredComponentNamesItsStore() throws {
        let stores = try ThreeStores()
        defer { stores.remove() }
        let container = try stores.container()
        let context = ModelContext(container)
        var tokens: [CompositeHistoryToken] = []
        for index in 0..<6 {
            context.insert(Note(title: "n\(index)"))
            context.insert(Person(name: "p\(index)"))
            try context.save()
            tokens.append(try #require(try context.fetchHistory(HistoryDescriptor()).last?.token))
        }
        // Trim every store up to its component of the fourth token.
        let cut = tokens[3]
        try context.deleteHistory(HistoryDescriptor(predicate: #Predicate { $0.token <= cut }))
        let remaining = try context.fetchHistory(HistoryDescriptor())
        #expect(remaining.count == 4)
        #expect(remaining.allSatisfy { $0.storeSequence > 4 })

        let old = tokens[1]
        #expect(
            throws: DataStoreError.historyTokenExpired(
                store: "alpha", tokenSequence: 2, oldestValidSequence: 4)
        ) {
            try context.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > old }))
        }
        #expect(
            try context.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > cut })).count == 4)
    }

    @Test func deleteHistoryTrimsEachStoreOnlyUpToItsComponent() throws {
        let stores = try ThreeStores()
        defer { stores.remove() }
        let container = try stores.container()
        let context = ModelContext(container)
        for index in 0..<3 {
            context.insert(Note(title: "n\(index)"))
            try context.save()
        }
        context.insert(Person(name: "Ada"))
        try context.save()
        // alpha at 3, beta at 1.
        let token = try #require(try context.fetchHistory(HistoryDescriptor()).last?.token)
        for index in 0..<2 {
            context.insert(Person(name: "Bo\(index)"))
            try context.save()
        }
        context.insert(Sample(value: 1))
        try context.save()

        try context.deleteHistory(HistoryDescriptor(predicate: #Predicate { $0.token <= token }))
        #expect(stores.notes.historyCount == 0)
        #expect(try stores.people.fetchHistory(.init()).count == 2)
        #expect(try stores.samples.fetchHistory(.init()).count == 1)  // not in the token: nothing trimmed
    }

    @Test func badCompositeTokensGetTypedErrorsAndWriteNothing() throws {
        let stores = try ThreeStores()
        defer { stores.remove() }
        let container = try stores.container()
        let context = ModelContext(container)
        context.insert(Note(title: "x"))
        try context.save()
        let good = try #require(try context.fetchHistory(HistoryDescriptor()).last?.token)
        let alphaEpoch = try #require(good.components["alpha"]?.epoch)

        let unknown = CompositeHistoryToken(components: ["delta": .init(epoch: UUID(), sequence: 1)])
        #expect(throws: DataStoreError.unknownStore(store: "delta")) {
            try context.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > unknown }))
        }
        let wrongEpoch = CompositeHistoryToken(components: ["alpha": .init(epoch: UUID(), sequence: 1)])
        #expect {
            try context.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > wrongEpoch }))
        } throws: { error in
            guard let error = error as? DataStoreError,
                case .storeErasedOrRecreated(_, let storeEpoch)? = error.tokenExpiry
            else { return false }
            return error.code == .historyTokenExpired && error.store == "alpha" && storeEpoch == alphaEpoch
        }
        #expect(throws: DataStoreError.unknownStore(store: "delta")) {
            try context.deleteHistory(HistoryDescriptor(predicate: #Predicate { $0.token <= unknown }))
        }
        let malformed = [
            #"{"v":1,"kind":"composite","stores":[{"store":"alpha","seq":1}]}"#,
            #"{"v":1,"kind":"composite","stores":[{"store":"alpha","epoch":"\#(alphaEpoch)","seq":1},{"store":"alpha","epoch":"\#(alphaEpoch)","seq":1}]}"#,
            #"{"v":1,"kind":"composite","stores":[{"store":"alpha","epoch":"\#(alphaEpoch)","seq":-1}]}"#,
        ]
        for json in malformed {
            #expect {
                try HistoryTokenCoding.decode(CompositeHistoryToken.self, fromJSON: Data(json.utf8))
            } throws: { error in
                if case DataStoreError.malformedHistoryToken = error { return true }
                return false
            }
        }
        // Nothing was written or trimmed by any of it.
        #expect(stores.notes.historyCount == 1 && stores.notes.modelCount == 1)
    }

    @Test func configurationsMustRouteEveryEntityToExactlyOneStore() throws {
        let notes = try openStore("alpha", [Note.self])
        #expect(throws: DataStoreError.self) {
            try ModelContainer(
                for: [Note.self, Person.self],
                configurations: [ModelConfiguration(store: notes, for: [Note.self])])
        }
        #expect(throws: DataStoreError.self) {
            try ModelContainer(
                for: [Note.self],
                configurations: [
                    ModelConfiguration(InMemoryStoreConfiguration(name: "one"), for: [Note.self]),
                    ModelConfiguration(InMemoryStoreConfiguration(name: "two"), for: [Note.self]),
                ])
        }
        #expect(throws: DataStoreError.modelTypeNotInContainer(entity: "Person")) {
            try ModelContainer(
                for: [Note.self],
                configurations: [
                    ModelConfiguration(InMemoryStoreConfiguration(name: "one"), for: [Person.self])
                ])
        }
        // An open store must hold the entities routed to it.
        #expect(throws: DataStoreError.self) {
            try ModelContainer(for: [Person.self], configurations: [ModelConfiguration(store: notes)])
        }
    }
}
