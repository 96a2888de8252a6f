import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import Testing

/// A fetch makes each model with its `init()` and then gives it its stored identifier: the identifier `init()`
/// made is a placeholder, not a random key drawn only to be dropped. A model made inside another's `init()`
/// keeps its placeholder until it is inserted, which gives it a random key.
@Suite struct FetchedIdentifierTests {
    final class Lid: PersistentModel {
        static let schemaAttributes: [ModelAttribute<Lid>] = [.attribute("colour", \.colour)]
        var persistentModelID = PersistentIdentifier()
        var colour = "grey"
        init() {}
    }

    final class Crate: PersistentModel {
        static let schemaAttributes: [ModelAttribute<Crate>] = [.attribute("label", \.label)]
        var persistentModelID = PersistentIdentifier()
        var label = ""
        /// Made with the crate, as an app might keep a spare part ready.
        let lid = Lid()
        init() {}
    }

    static func container() throws -> ModelContainer {
        try ModelContainer(
            for: [Crate.self, Lid.self],
            configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "c"))])
    }

    @Test func aFetchedModelHasItsStoredIdentifierAndDrewNoRandomKey() throws {
        let container = try Self.container()
        let context = ModelContext(container)
        for label in ["a", "b", "c"] {
            let crate = Crate()
            crate.label = label
            // Outside a fetch, `init()` draws random keys.
            #expect(!crate.persistentModelID.isPlaceholder && !crate.lid.persistentModelID.isPlaceholder)
            #expect(crate.lid.persistentModelID.primaryKey.count == PersistentIdentifier.randomKeyLength)
            context.insert(crate)
        }
        try context.save()
        let saved = try context.fetch(FetchDescriptor<Crate>()).map(\.persistentModelID)

        let fetched = try ModelContext(container).fetch(FetchDescriptor<Crate>())
        #expect(fetched.map(\.persistentModelID) == saved)
        #expect(fetched.allSatisfy { !$0.persistentModelID.isPlaceholder })
        // The lids were made by the crates' `init()` during the fetch: placeholders, each its own.
        let lids = fetched.map(\.lid.persistentModelID)
        #expect(lids.allSatisfy { $0.isPlaceholder })
        #expect(Set(lids).count == lids.count)
        #expect(lids.allSatisfy { !$0.isResolved })
        // One model alone (`model(for:)` refreshes through the same path).
        let model = try ModelContext(container).existingModel(for: saved[0])
        let one = try #require(model as? Crate)
        #expect(one.persistentModelID == saved[0] && one.lid.persistentModelID.isPlaceholder)
        // And a plain `init()` after the fetch draws random keys again.
        #expect(!Lid().persistentModelID.isPlaceholder)
    }

    @Test func insertingAModelWithAPlaceholderGivesItARandomKey() throws {
        let container = try Self.container()
        let setup = ModelContext(container)
        setup.insert(Crate())
        try setup.save()
        let context = ModelContext(container)
        let crates = try context.fetch(FetchDescriptor<Crate>())
        let lid = try #require(crates.first?.lid)
        let placeholder = lid.persistentModelID
        #expect(placeholder.isPlaceholder)
        lid.colour = "red"
        context.insert(lid)
        #expect(
            !lid.persistentModelID.isPlaceholder
                && lid.persistentModelID.primaryKey.count == PersistentIdentifier.randomKeyLength)
        try context.save()
        let stored = try ModelContext(container).fetch(FetchDescriptor<Lid>())
        #expect(stored.map(\.persistentModelID) == [lid.persistentModelID])
        #expect(stored.map(\.colour) == ["red"])
    }
}
