import DataStoreCore
import DataStoreKit
import Testing

/// Without relationships, the planner leaves an insert that holds no unique value out of its table of rows
/// after the save until something reads it there. Each reader must find it: a later request of a group
/// commit, and the full pass an upsert makes run over the whole request.
@Suite struct DeferredInsertPlanningTests {
    /// Notes (no unique value) and tags (a unique name), unrelated.
    static let schema = Schema(entities: [
        .init(name: "Note", attributes: [.init(name: "title")]),
        .init(name: "Tag", attributes: [.init(name: "name", options: [.unique]), .init(name: "color")]),
    ])

    static func id(_ entity: String, _ key: String) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: "notes", entityName: entity, primaryKey: key)
    }

    static func note(_ key: String, _ title: String) -> DataStoreSnapshot {
        DataStoreSnapshot(persistentIdentifier: id("Note", key), values: ["title": .string(title)])
    }

    static func tag(_ key: String, _ name: String, _ color: String) -> DataStoreSnapshot {
        DataStoreSnapshot(
            persistentIdentifier: id("Tag", key), values: ["name": .string(name), "color": .string(color)])
    }

    static func emptyTable() -> SnapshotTable { SnapshotTable(storeIdentifier: "notes", schema: schema) }

    @Test func aLaterRequestOfAGroupSeesTheEarlierOnesInserts() throws {
        let table = Self.emptyTable()
        let plans = table.plan([
            DataStoreSaveChangesRequest(inserted: [Self.note("a", "first"), Self.note("b", "second")]),
            DataStoreSaveChangesRequest(inserted: [Self.note("a", "again")]),
            DataStoreSaveChangesRequest(updated: [Self.note("b", "edited")]),
            DataStoreSaveChangesRequest(deleted: [Self.note("a", "")]),
        ])
        #expect(try plans[0].get().changes.map(\.kind) == [.insert, .insert])
        // The same model inserted again by the next request is refused: it is in the store by then.
        #expect(throws: DataStoreError.self) { try plans[1].get() }
        // An update and a delete of models the first request inserted find them.
        #expect(try plans[2].get().changes.map(\.kind) == [.update])
        #expect(try plans[3].get().changes.map(\.kind) == [.delete])
    }

    @Test func anUpsertInTheSameRequestKeepsEveryDeferredInsert() throws {
        var table = Self.emptyTable()
        table.apply(try table.plan(DataStoreSaveChangesRequest(inserted: [Self.tag("t1", "work", "red")])))
        // A note (deferred) and a new tag whose name another tag holds (an upsert of t1).
        let plan = try table.plan(
            DataStoreSaveChangesRequest(inserted: [
                Self.note("n1", "before"), Self.tag("t2", "work", "blue"), Self.note("n2", "after"),
            ]))
        #expect(plan.remappedIdentifiers == [Self.id("Tag", "t2"): Self.id("Tag", "t1")])
        let changes = Dictionary(uniqueKeysWithValues: plan.changes.map { ($0.identifier, $0) })
        #expect(changes.count == 3)
        #expect(changes[Self.id("Note", "n1")]?.kind == .insert)
        #expect(changes[Self.id("Note", "n2")]?.values["title"] == .string("after"))
        #expect(changes[Self.id("Tag", "t1")]?.values["color"] == .string("blue"))
        table.apply(plan)
        #expect(table[Self.id("Note", "n1")]?.values["title"] == .string("before"))
        #expect(table[Self.id("Note", "n2")] != nil)
    }

    @Test func aFailedRequestOfAGroupLeavesNoDeferredInsertBehind() throws {
        let table = Self.emptyTable()
        let plans = table.plan([
            // Fails after its insert was planned: the updated note is not in the store.
            DataStoreSaveChangesRequest(inserted: [Self.note("a", "one")], updated: [Self.note("x", "two")]),
            DataStoreSaveChangesRequest(inserted: [Self.note("b", "three")]),
            DataStoreSaveChangesRequest(inserted: [Self.note("a", "four")]),
        ])
        #expect(throws: DataStoreError.self) { try plans[0].get() }
        #expect(try plans[1].get().changes.map(\.identifier) == [Self.id("Note", "b")])
        #expect(try plans[2].get().changes.map(\.identifier) == [Self.id("Note", "a")])
    }
}
