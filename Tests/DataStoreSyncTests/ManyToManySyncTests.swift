import DataStoreCore
import DataStoreModels
import DataStoreSync
import Foundation
import InMemoryStorage
import StoreTestSupport
import Testing

/// Notes and tags, many-to-many without previous values: two devices tag one note from their own views, and
/// both tags stay on it, on both sides, everywhere.
@Suite struct ManyToManySyncTests {
    @Test func tagsAddedOnTwoDevicesBothStay() throws {
        let lab = try SyncLab(server: try InMemoryDataStore(.init(name: "server", schema: SyncSchemas.tags)))
        defer { lab.remove() }
        let models: [any PersistentModel.Type] = [SyncTaggedNote.self, SyncTag.self]
        let (a, b) = (
            try lab.device("a", schema: SyncSchemas.tags, models: models),
            try lab.device("b", schema: SyncSchemas.tags, models: models)
        )
        try a.edit { context in
            let note = SyncTaggedNote(title: "packing")
            context.insert(note)
            note.tags = ["travel", "home"].map { SyncTag(name: $0) }
            context.insert(SyncTag(name: "urgent"))
            context.insert(SyncTag(name: "later"))
        }
        try a.sync()
        try b.sync()
        func tag(_ name: String, _ context: ModelContext) throws -> SyncTag {
            try #require(
                try context.fetch(FetchDescriptor<SyncTag>(predicate: #Predicate { $0.name == name })).first)
        }
        func note(_ context: ModelContext) throws -> SyncTaggedNote {
            try #require(try context.fetch(FetchDescriptor<SyncTaggedNote>()).first)
        }
        // a tags the note urgent; b, which has not seen it, tags it later and drops home.
        try a.edit { try note($0).tags.append(try tag("urgent", $0)) }
        try b.edit { context in
            let packing = try note(context)
            packing.tags.append(try tag("later", context))
            packing.tags.removeAll { $0.name == "home" }
        }
        try a.sync()
        try b.sync()
        try a.sync()
        for (device, name) in [(a, "a"), (b, "b")] {
            let context = ModelContext(device.container)
            let tags = try note(context).tags.map(\.name)
            #expect(tags == ["travel", "urgent", "later"], "\(name)'s note")
            for tagName in ["travel", "urgent", "later", "home"] {
                let notes = try tag(tagName, context).notes?.map(\.title) ?? []
                #expect(notes == (tagName == "home" ? [] : ["packing"]), "\(name)'s tag \(tagName)")
            }
        }
    }
}

extension ManyToManySyncTests {
    /// `SyncTaggingScenario` against an in-memory server (`PostgresSyncListScenarioTests` runs it against
    /// PostgreSQL): 60 seeds of 30 rounds in `swift test`, 600 with `DATASTORE_SOAK=1`.
    @Test func randomTaggingConverges() throws {
        let seeds = SoakSeeds.range(quick: 60)
        let scenario = SyncTaggingScenario { schema in
            try InMemoryDataStore(.init(name: "server", schema: schema))
        }
        for seed in seeds {
            let problems = try scenario.run(seed: UInt64(seed))
            #expect(problems.isEmpty, "seed \(seed): \(problems.joined(separator: "\n"))")
            if !problems.isEmpty { return }
        }
    }
}
