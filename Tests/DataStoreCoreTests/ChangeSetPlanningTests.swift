import DataStoreCore
import DataStoreKit
import Testing

/// The planner merges change sets into stored rows and keeps inverse relationships consistent from the rows it
/// holds, whatever a saver sends for the other side.
@Suite struct ChangeSetPlanningTests {
    static let schema = Schema(entities: [
        .init(
            name: "Trip",
            attributes: [.init(name: "name"), .init(name: "destination"), .init(name: "items")],
            relationships: [
                .init(
                    name: "items", destination: "Item", isToMany: true, deleteRule: .cascade, inverse: "trip")
            ]),
        .init(
            name: "Item", attributes: [.init(name: "title"), .init(name: "trip")],
            relationships: [.init(name: "trip", destination: "Trip", isToMany: false, deleteRule: .nullify)]),
    ])

    static func id(_ entity: String, _ key: String) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: "trips", entityName: entity, primaryKey: key)
    }

    static let lisbon = id("Trip", "lisbon")
    static let oslo = id("Trip", "oslo")
    static let first = id("Item", "1")
    static let second = id("Item", "2")

    static func list(_ ids: PersistentIdentifier...) -> SnapshotValue {
        .array(ids.map(SnapshotValue.identifier))
    }

    /// Lisbon holds items 1 and 2; Oslo holds none.
    static func table() throws -> SnapshotTable {
        var table = SnapshotTable(storeIdentifier: "trips", schema: schema)
        table.apply(
            try table.plan(
                DataStoreSaveChangesRequest(inserted: [
                    DataStoreSnapshot(
                        persistentIdentifier: lisbon,
                        values: [
                            "name": .string("Lisbon"), "destination": .string("PT"),
                            "items": list(first, second),
                        ]),
                    DataStoreSnapshot(
                        persistentIdentifier: oslo,
                        values: ["name": .string("Oslo"), "destination": .string("NO"), "items": list()]),
                    DataStoreSnapshot(
                        persistentIdentifier: first,
                        values: ["title": .string("one"), "trip": .identifier(lisbon)]),
                    DataStoreSnapshot(
                        persistentIdentifier: second,
                        values: ["title": .string("two"), "trip": .identifier(lisbon)]),
                ])))
        return table
    }

    @Test func anUpdateKeepsTheAttributesItDoesNotSend() throws {
        var table = try Self.table()
        let plan = try table.plan(
            DataStoreSaveChangesRequest(updated: [
                DataStoreSnapshot(
                    persistentIdentifier: Self.lisbon, values: ["destination": .string("Porto")])
            ]))
        #expect(plan.changes.map(\.updatedAttributes) == [["destination"]])
        table.apply(plan)
        #expect(table[Self.lisbon]?[attribute: "name"] == .string("Lisbon"))
        #expect(table[Self.lisbon]?[attribute: "items"] == Self.list(Self.first, Self.second))
    }

    @Test func settingOnlyTheToOneSideMovesTheItemOutOfTheOldList() throws {
        var table = try Self.table()
        let plan = try table.plan(
            DataStoreSaveChangesRequest(updated: [
                DataStoreSnapshot(persistentIdentifier: Self.first, values: ["trip": .identifier(Self.oslo)])
            ]))
        table.apply(plan)
        #expect(table[Self.lisbon]?[attribute: "items"] == Self.list(Self.second))
        #expect(table[Self.oslo]?[attribute: "items"] == Self.list(Self.first))
        // History reports the lists as updated, as a context that changed them would.
        #expect(Set(plan.changes.map(\.identifier)) == [Self.first, Self.lisbon, Self.oslo])
        #expect(Set(plan.deleteRuleChanges.map(\.identifier)) == [Self.lisbon, Self.oslo])

        // Deleting Lisbon now cascades to item 2 only.
        let delete = try table.plan(
            DataStoreSaveChangesRequest(deleted: [
                DataStoreSnapshot(persistentIdentifier: Self.lisbon, values: [:])
            ]))
        #expect(
            Set(delete.changes.filter { $0.kind == .delete }.map(\.identifier)) == [Self.lisbon, Self.second])
    }

    @Test func aCascadeFollowsTheItemsSideNotAStaleList() throws {
        // A list that says more than the items do (as stores written before change sets may hold).
        var table = try Self.table()
        table.apply(
            PlannedChange(
                kind: .update, identifier: Self.first, values: ["trip": .identifier(Self.oslo)],
                updatedAttributes: ["trip"]))
        let delete = try table.plan(
            DataStoreSaveChangesRequest(deleted: [
                DataStoreSnapshot(persistentIdentifier: Self.lisbon, values: [:])
            ]))
        #expect(
            Set(delete.changes.filter { $0.kind == .delete }.map(\.identifier)) == [Self.lisbon, Self.second])
    }

    @Test func listEditsWithABaselineMergeWithTheStoredList() throws {
        var table = try Self.table()
        // Another saver took item 1 to Oslo.
        table.apply(
            try table.plan(
                DataStoreSaveChangesRequest(updated: [
                    DataStoreSnapshot(
                        persistentIdentifier: Self.first, values: ["trip": .identifier(Self.oslo)])
                ])))
        // A saver that still sees [1, 2] in Lisbon removes 2 and adds a new item 3.
        let third = Self.id("Item", "3")
        let plan = try table.plan(
            DataStoreSaveChangesRequest(
                inserted: [
                    DataStoreSnapshot(
                        persistentIdentifier: third,
                        values: ["title": .string("three"), "trip": .identifier(Self.lisbon)])
                ],
                updated: [
                    DataStoreSnapshot(
                        persistentIdentifier: Self.lisbon, values: ["items": Self.list(Self.first, third)]),
                    DataStoreSnapshot(persistentIdentifier: Self.second, values: ["trip": .null]),
                ],
                baselines: [
                    Self.lisbon: ["items": Self.list(Self.first, Self.second)],
                    Self.second: ["trip": .identifier(Self.lisbon)],
                ]))
        table.apply(plan)
        #expect(table[Self.lisbon]?[attribute: "items"] == Self.list(third))
        #expect(table[Self.oslo]?[attribute: "items"] == Self.list(Self.first))
        #expect(table[Self.first]?[attribute: "trip"] == .identifier(Self.oslo))
        // The saver is told what the store made of its list.
        #expect(
            plan.deleteRuleChanges.contains {
                $0.identifier == Self.lisbon && $0.values["items"] == Self.list(third)
            })
    }

    @Test func theErrorPolicyComparesBaselinesWithTheStoredRow() throws {
        let table = try Self.table()
        let stale = DataStoreSaveChangesRequest(
            updated: [
                DataStoreSnapshot(persistentIdentifier: Self.lisbon, values: ["destination": .string("Faro")])
            ],
            baselines: [Self.lisbon: ["destination": .string("ES")]], mergePolicy: .error)
        #expect {
            try table.plan(stale)
        } throws: { error in
            let error = error as? DataStoreError
            return error?.code == .mergeConflict && error?.attribute == "destination"
                && error?.identifier == Self.lisbon
        }
        var current = stale
        current.baselines = [Self.lisbon: ["destination": .string("PT")]]
        #expect(try table.plan(current).changes.map(\.updatedAttributes) == [["destination"]])
        // The default policy writes the stale saver's value.
        var merging = stale
        merging.mergePolicy = .mergeByPropertyObjectTrump
        #expect(try table.plan(merging).changes.first?.values == ["destination": .string("Faro")])
    }
}
