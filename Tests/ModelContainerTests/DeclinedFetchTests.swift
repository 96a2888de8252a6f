import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import StoreTestSupport
import Synchronization
import Testing

/// A store may decline a fetch's predicate or sort (`preferInMemoryFilter`, `preferInMemorySort`), as in
/// SwiftData; the model layer then does that part in Swift, for `fetch`, `fetchCount`, `fetchIdentifiers`,
/// `enumerate` and batch deletes, and answers exactly what a store that does the work answers.
@Suite struct DeclinedFetchTests {
    typealias Generator = RandomPredicates.Generator

    /// 240 rounds of 30 random gadgets (NaN, ±0, infinities, canonically equivalent strings, `nil`s) and a
    /// random predicate (one in four with a part no store can push down) under a random sort, offset and limit:
    /// a container over a store that declines everything answers as one over the in-memory store, which does
    /// the work itself.
    @Test func aStoreThatDeclinesEverythingAnswersAsOneThatDeclinesNothing() throws {
        var random = Generator(seed: 2033)
        var declined = 0
        for round in 0..<240 {
            let declining = try ModelContainer(
                for: [Gadget.self],
                configurations: [ModelConfiguration(DecliningStoreConfiguration(name: "s"))])
            let working = try ModelContainer(
                for: [Gadget.self],
                configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "s"))])
            // Unique counts, so every sort below (which ends with `count`) is a total order.
            let gadgets = (0..<30).map { index in
                var gadget = RandomPredicates.randomGadget(index, &random)
                gadget.count = index * 7 % 30 - 15
                return gadget
            }
            let save = DataStoreSaveChangesRequest(inserted: gadgets.map(\.snapshot))
            _ = try #require(declining.store("s", as: DecliningStore.self)).save(save)
            _ = try #require(working.store("s", as: InMemoryDataStore.self)).save(save)
            let predicate = RandomPredicates.randomPredicate(&random, pushable: round % 4 != 3)
            let sorts: [[SortDescriptor<Gadget>]] = [
                [], [SortDescriptor(\.count)], [SortDescriptor(\.count, order: .reverse)],
                [SortDescriptor(\.name), SortDescriptor(\.count)],
                [SortDescriptor(\.nickname, order: .reverse), SortDescriptor(\.count)],
            ]
            var descriptor = FetchDescriptor<Gadget>(
                predicate: Bool.random(using: &random) || round < 10 ? predicate : nil,
                sortBy: sorts.randomElement(using: &random)!)
            if Bool.random(using: &random) {
                descriptor.fetchOffset = Int.random(in: 0...4, using: &random)
                descriptor.fetchLimit = Int.random(in: 0...8, using: &random)
            }
            let expected = ModelContext(working)
            let actual = ModelContext(declining)
            let context = "round \(round)"
            #expect(
                try actual.fetch(descriptor).map(\.persistentModelID)
                    == expected.fetch(descriptor).map(\.persistentModelID), "\(context): fetch")
            #expect(try actual.fetchCount(descriptor) == expected.fetchCount(descriptor), "\(context): count")
            #expect(
                try actual.fetchIdentifiers(descriptor) == expected.fetchIdentifiers(descriptor),
                "\(context): identifiers")
            var visited: [[PersistentIdentifier]] = [[], []]
            for (index, context) in [actual, expected].enumerated() {
                try context.enumerate(descriptor, batchSize: 7) {
                    visited[index].append($0.persistentModelID)
                }
            }
            #expect(visited[0] == visited[1], "\(context): enumerate")
            // Every eighth round, a batch delete by the predicate: the same models are left.
            if round % 8 == 0 {
                for context in [actual, expected] {
                    try context.delete(model: Gadget.self, where: predicate)
                    try context.save()
                }
                let all = FetchDescriptor<Gadget>(sortBy: [SortDescriptor(\.count)])
                #expect(
                    try ModelContext(declining).fetchIdentifiers(all)
                        == ModelContext(working).fetchIdentifiers(all),
                    "\(context): the models a batch delete left")
            }
            declined += declining.store("s", as: DecliningStore.self)?.declined.load(ordering: .relaxed) ?? 0
        }
        // The store did decline: the model layer did the work.
        #expect(declined > 240)
    }
}
