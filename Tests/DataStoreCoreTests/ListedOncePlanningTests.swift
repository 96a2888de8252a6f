import DataStoreCore
import DataStoreKit
import Testing

/// A to-many list holds each model once. An insert that becomes an upsert (its unique value is taken) stands
/// for the model holding that value in every list of the save that names it, and a list naming both ends up
/// naming the holder once; a list sent naming a model twice is stored naming it once.
@Suite struct ListedOncePlanningTests {
    /// Notes and tags, many-to-many; a tag's name is unique.
    static let schema = Schema(entities: [
        .init(
            name: "Note", attributes: [.init(name: "title"), .init(name: "tags")],
            relationships: [
                .init(
                    name: "tags", destination: "Tag", isToMany: true, deleteRule: .nullify, inverse: "notes")
            ]),
        .init(
            name: "Tag", attributes: [.init(name: "name", options: [.unique]), .init(name: "notes")],
            relationships: [
                .init(
                    name: "notes", destination: "Note", isToMany: true, deleteRule: .nullify, inverse: "tags")
            ]),
    ])

    static func id(_ entity: String, _ key: String) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: "notes", entityName: entity, primaryKey: key)
    }

    static let note = id("Note", "n")
    static let held = id("Tag", "held")
    static let proposed = id("Tag", "proposed")

    static func list(_ ids: PersistentIdentifier...) -> SnapshotValue {
        .array(ids.map(SnapshotValue.identifier))
    }

    /// Note n tagged with tag `held`, named w.
    static func table() throws -> SnapshotTable {
        var table = SnapshotTable(storeIdentifier: "notes", schema: schema)
        table.apply(
            try table.plan(
                DataStoreSaveChangesRequest(inserted: [
                    DataStoreSnapshot(
                        persistentIdentifier: note, values: ["title": .string("n"), "tags": list(held)]),
                    DataStoreSnapshot(
                        persistentIdentifier: held, values: ["name": .string("w"), "notes": list(note)]),
                ])))
        return table
    }

    /// Another saver's tag w, put on n from both sides: n's list sent naming the holder and the new tag, with
    /// `baseline` as its baseline when there is one.
    static func upsertPuttingTheNoteOnBoth(baseline: SnapshotValue?) -> DataStoreSaveChangesRequest {
        DataStoreSaveChangesRequest(
            inserted: [
                DataStoreSnapshot(
                    persistentIdentifier: proposed, values: ["name": .string("w"), "notes": list(note)])
            ],
            updated: [DataStoreSnapshot(persistentIdentifier: note, values: ["tags": list(held, proposed)])],
            baselines: baseline.map { [note: ["tags": $0]] } ?? [:])
    }

    /// Another saver's tag w, put on n: the note's list, sent naming both tags, names the holder once, and
    /// the holder lists the note once.
    @Test func aListNamingTheUpsertAndItsHolderNamesTheHolderOnce() throws {
        var table = try Self.table()
        let plan = try table.plan(
            Self.upsertPuttingTheNoteOnBoth(baseline: nil))
        #expect(plan.remappedIdentifiers == [Self.proposed: Self.held])
        table.apply(plan)
        #expect(table[Self.note]?[attribute: "tags"] == Self.list(Self.held))
        #expect(table[Self.held]?[attribute: "notes"] == Self.list(Self.note))
        // Nothing changed: the save records no change of the note.
        #expect(!plan.changes.contains { $0.identifier == Self.note })
    }

    /// The same list edited with a baseline (the saver's view before it added its tag): merged with the stored
    /// list, it names the holder once too, and keeps another saver's tag.
    @Test func aMergedListNamingTheUpsertAndItsHolderNamesTheHolderOnce() throws {
        var table = try Self.table()
        let other = Self.id("Tag", "other")
        table.apply(
            try table.plan(
                DataStoreSaveChangesRequest(
                    inserted: [
                        DataStoreSnapshot(
                            persistentIdentifier: other, values: ["name": .string("x"), "notes": Self.list()])
                    ],
                    updated: [
                        DataStoreSnapshot(
                            persistentIdentifier: Self.note, values: ["tags": Self.list(Self.held, other)])
                    ])))
        let plan = try table.plan(
            Self.upsertPuttingTheNoteOnBoth(baseline: Self.list(Self.held)))
        table.apply(plan)
        #expect(table[Self.note]?[attribute: "tags"] == Self.list(Self.held, other))
        #expect(table[Self.held]?[attribute: "notes"] == Self.list(Self.note))
    }

    /// A list sent naming a model twice names it once, and the save reports the list it stored to the saver.
    @Test func aListSentNamingAModelTwiceNamesItOnce() throws {
        var table = try Self.table()
        let request = DataStoreSaveChangesRequest(updated: [
            DataStoreSnapshot(
                persistentIdentifier: Self.note, values: ["tags": Self.list(Self.held, Self.held)])
        ])
        let plan = try table.plan(request)
        table.apply(plan)
        #expect(table[Self.note]?[attribute: "tags"] == Self.list(Self.held))
        #expect(plan.changes.isEmpty)
        #expect(plan.deleteRuleChanges.map(\.values) == [["tags": Self.list(Self.held)]])
    }
}
