import DataStoreCore
import DataStoreKit
import Foundation
import Testing

@Suite struct SnapshotTableTests {
    static let schema = Schema(entities: [
        .init(
            name: "Tag",
            attributes: [
                .init(name: "label", options: [.unique, .preserveValueOnDeletion]), .init(name: "colour"),
            ])
    ])

    static func id(_ key: String) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: "tags", entityName: "Tag", primaryKey: key)
    }

    static func tag(_ key: String, _ label: String, _ colour: String = "red") -> DataStoreSnapshot {
        DataStoreSnapshot(
            persistentIdentifier: id(key), values: ["label": .string(label), "colour": .string(colour)])
    }

    /// A model of the table's entity, for fetches.
    struct Tag: PersistentModel {
        static let schemaAttributes: [ModelAttribute<Tag>] = [
            .attribute("label", \.label), .attribute("colour", \.colour),
        ]
        var persistentModelID = PersistentIdentifier()
        var label = ""
        var colour = ""
        init() {}
    }

    /// A table holding tags with these keys and labels, inserted in this order.
    static func table(holding tags: [(key: String, label: String)]) throws -> SnapshotTable {
        var table = SnapshotTable(storeIdentifier: "tags", schema: schema)
        table.apply(try table.plan(DataStoreSaveChangesRequest(inserted: tags.map { tag($0.key, $0.label) })))
        return table
    }

    /// The keys of the rows a fetch of every tag examines, in the order it gets them.
    static func everyKey(_ table: SnapshotTable) -> [String] {
        table.candidates(for: FetchDescriptor<Tag>(), bounds: ModelPredicateBounds<Tag>(nil))
            .map(\.persistentIdentifier.primaryKey)
    }

    /// Every row comes in identifier order (kept between fetches, not sorted on each): an insert or a delete
    /// changes the order, an update does not, and a copy of the table keeps the order of its own rows.
    @Test func everyRowComesInIdentifierOrderAfterInsertsAndDeletes() throws {
        var table = try Self.table(holding: [("3", "c"), ("1", "a"), ("5", "e")])
        let unfetched = table
        #expect(Self.everyKey(table) == ["1", "3", "5"])
        let fetched = table
        table.apply(
            try table.plan(
                DataStoreSaveChangesRequest(inserted: [Self.tag("2", "b")], deleted: [Self.tag("3", "c")])))
        #expect(Self.everyKey(table) == ["1", "2", "5"])
        #expect(Self.everyKey(fetched) == ["1", "3", "5"])
        #expect(Self.everyKey(unfetched) == ["1", "3", "5"])
        let beforeUpdate = table
        table.apply(try table.plan(DataStoreSaveChangesRequest(updated: [Self.tag("5", "e", "blue")])))
        #expect(Self.everyKey(table) == ["1", "2", "5"])
        let rows = table.candidates(for: FetchDescriptor<Tag>(), bounds: ModelPredicateBounds<Tag>(nil))
        #expect(rows.last?[attribute: "colour"] == .string("blue"))
        // The rows in order were kept from the fetch before; the update replaced them, in this table only.
        let earlier = beforeUpdate.candidates(
            for: FetchDescriptor<Tag>(), bounds: ModelPredicateBounds<Tag>(nil))
        #expect(earlier.last?[attribute: "colour"] != .string("blue"))
        table.apply(try table.plan(DataStoreSaveChangesRequest(updated: [Self.tag("1", "a", "green")])))
        let again = table.candidates(for: FetchDescriptor<Tag>(), bounds: ModelPredicateBounds<Tag>(nil))
        #expect(again.map { $0[attribute: "colour"] } == [.string("green"), .string("red"), .string("blue")])
        // A copy made before the order was first computed, changed afterwards, keeps its own.
        var copy = unfetched
        copy.apply(try copy.plan(DataStoreSaveChangesRequest(inserted: [Self.tag("4", "d")])))
        #expect(Self.everyKey(copy) == ["1", "3", "4", "5"])
        #expect(Self.everyKey(unfetched) == ["1", "3", "5"])
        table.removeAll()
        #expect(Self.everyKey(table).isEmpty)
    }

    /// A copy of the table made before an update keeps its own rows in order: fetching from it after the update
    /// must not hand its rows to the table (they share the order until one of them changes).
    @Test func aCopyFetchedAfterAnUpdateDoesNotLendItsRowsToTheTable() throws {
        var table = try Self.table(holding: [("1", "a"), ("2", "b"), ("3", "c")])
        let copy = table
        table.apply(try table.plan(DataStoreSaveChangesRequest(updated: [Self.tag("2", "b", "blue")])))
        let everything = FetchDescriptor<Tag>()
        let copied = copy.candidates(for: everything, bounds: ModelPredicateBounds<Tag>(nil))
        #expect(copied.map { $0[attribute: "colour"] } == [.string("red"), .string("red"), .string("red")])
        let current = table.candidates(for: everything, bounds: ModelPredicateBounds<Tag>(nil))
        #expect(current.map { $0[attribute: "colour"] } == [.string("red"), .string("blue"), .string("red")])
        // And every row in order, as a checkpoint writes them.
        #expect(
            table.rowsInIdentifierOrder.map { $0[attribute: "colour"] }
                == current.map { $0[attribute: "colour"] })
        #expect(copy.rowsInIdentifierOrder.map(\.persistentIdentifier) == copied.map(\.persistentIdentifier))
    }

    /// A fetch of many rows by identifier (how a context loads related models) gets them in identifier order
    /// from the table; a fetch of a few gets them unordered, and the query orders them. Both answer the same.
    @Test func manyRowsByIdentifierComeInOrderAndFewAreOrderedByTheQuery() throws {
        var table = SnapshotTable(storeIdentifier: "tags", schema: Self.schema)
        let keys = (0..<200).map { String(format: "k%03d", ($0 * 37) % 200) }
        table.apply(
            try table.plan(DataStoreSaveChangesRequest(inserted: keys.map { Self.tag($0, "label \($0)") })))
        for wanted in [Set(keys.prefix(150)), Set(keys.prefix(3))] {
            let ids = Set(wanted.map(Self.id))
            let descriptor = FetchDescriptor<Tag>(
                predicate: #Predicate { ids.contains($0.persistentModelID) })
            let bounds = ModelPredicateBounds<Tag>(descriptor.predicate)
            let picked = table.selectCandidates(for: descriptor, bounds: bounds)
            let pickedKeys = picked.rows.map(\.persistentIdentifier.primaryKey)
            #expect(Set(pickedKeys) == wanted)
            #expect(picked.areInIdentifierOrder == (wanted.count == 150))
            if picked.areInIdentifierOrder { #expect(pickedKeys == pickedKeys.sorted()) }
            let answer = try SnapshotQuery.run(
                descriptor, over: picked.rows, storeIdentifier: "tags", bounds: bounds,
                candidatesInIdentifierOrder: picked.areInIdentifierOrder)
            #expect(answer.map(\.persistentIdentifier.primaryKey) == wanted.sorted())
        }
    }

    @Test func planningNeverChangesTheTable() throws {
        var table = SnapshotTable(storeIdentifier: "tags", schema: Self.schema)
        table.apply(try table.plan(DataStoreSaveChangesRequest(inserted: [Self.tag("1", "home")])))
        let plan = try table.plan(
            DataStoreSaveChangesRequest(inserted: [Self.tag("2", "work")], deleted: [Self.tag("1", "home")]))
        #expect(table.count == 1)
        #expect(table[Self.id("1")] != nil && table[Self.id("2")] == nil)
        #expect(plan.changes.map(\.kind) == [.insert, .delete])
        #expect(plan.changes.last?.tombstone == ["label": .string("home")])
    }

    @Test func aValueFreedByADeleteInTheSameSaveCanBeTaken() throws {
        var table = SnapshotTable(storeIdentifier: "tags", schema: Self.schema)
        table.apply(try table.plan(DataStoreSaveChangesRequest(inserted: [Self.tag("1", "home")])))
        let plan = try table.plan(
            DataStoreSaveChangesRequest(inserted: [Self.tag("2", "home")], deleted: [Self.tag("1", "home")]))
        #expect(plan.remappedIdentifiers.isEmpty)
        #expect(plan.changes.map(\.kind) == [.insert, .delete])
        table.apply(plan)
        // The unique index moved with the value: a third insert of "home" upserts into model 2.
        let again = try table.plan(DataStoreSaveChangesRequest(inserted: [Self.tag("3", "home", "blue")]))
        #expect(again.remappedIdentifiers == [Self.id("3"): Self.id("2")])
        #expect(
            again.changes == [
                PlannedChange(
                    kind: .update, identifier: Self.id("2"), values: ["colour": .string("blue")],
                    updatedAttributes: ["colour"])
            ])
    }

    @Test func twoInsertsOfOneUniqueValueFoldIntoOneInsert() throws {
        let table = SnapshotTable(storeIdentifier: "tags", schema: Self.schema)
        let plan = try table.plan(
            DataStoreSaveChangesRequest(inserted: [Self.tag("1", "home"), Self.tag("2", "home", "green")]))
        #expect(plan.changes.count == 1)
        #expect(plan.changes.first?.kind == .insert)
        #expect(plan.changes.first?.values["colour"] == .string("green"))
        #expect(plan.remappedIdentifiers == [Self.id("2"): Self.id("1")])
    }

    @Test func anUpdateWithNoRealChangeRecordsNothing() throws {
        var table = SnapshotTable(storeIdentifier: "tags", schema: Self.schema)
        table.apply(try table.plan(DataStoreSaveChangesRequest(inserted: [Self.tag("1", "home")])))
        #expect(try table.plan(DataStoreSaveChangesRequest(updated: [Self.tag("1", "home")])).changes.isEmpty)
    }

    @Test func withoutASchemaAnyEntityIsAcceptedWithoutOptions() throws {
        var table = SnapshotTable(storeIdentifier: "tags", schema: nil)
        table.apply(try table.plan(DataStoreSaveChangesRequest(inserted: [Self.tag("1", "home")])))
        let plan = try table.plan(
            DataStoreSaveChangesRequest(inserted: [Self.tag("2", "home")], deleted: [Self.tag("1", "home")]))
        #expect(plan.remappedIdentifiers.isEmpty)
        #expect(plan.changes.last?.tombstone == [:])
    }
}

/// The save planner reads only the rows a save touches, through a row source a database store would
/// implement with two indexed lookups.
@Suite struct RowSourcePlanningTests {
    /// A source over a table that counts its lookups.
    final class CountingSource: SnapshotRowSource {
        let table: SnapshotTable
        var rowReads = 0
        var holderReads = 0
        init(_ table: SnapshotTable) { self.table = table }
        func row(for identifier: PersistentIdentifier) -> DataStoreSnapshot? {
            rowReads += 1
            return table.row(for: identifier)
        }
        func uniqueHolder(entity: String, attributes: [String], values: [SnapshotValue])
            -> PersistentIdentifier?
        {
            holderReads += 1
            return table.uniqueHolder(entity: entity, attributes: attributes, values: values)
        }
    }

    static let schema = Schema(entities: [
        .init(name: "Tag", attributes: [.init(name: "name", options: [.unique]), .init(name: "color")])
    ])

    static func tag(_ key: String, _ name: String, _ color: String = "red") -> DataStoreSnapshot {
        DataStoreSnapshot(
            persistentIdentifier: PersistentIdentifier(
                storeIdentifier: "s", entityName: "Tag", primaryKey: key),
            values: ["name": .string(name), "color": .string(color)])
    }

    /// A table of `count` tags, `k0` holding `n0` and so on.
    static func table(of count: Int) throws -> SnapshotTable {
        var table = SnapshotTable(storeIdentifier: "s", schema: schema)
        table.apply(
            try table.plan(
                DataStoreSaveChangesRequest(inserted: (0..<count).map { tag("k\($0)", "n\($0)") })))
        return table
    }

    @Test func aSaveReadsOnlyTheRowsItTouchesOfTenThousand() throws {
        let table = try Self.table(of: 10_000)
        let source = CountingSource(table)
        let request = DataStoreSaveChangesRequest(
            inserted: [Self.tag("new", "fresh"), Self.tag("dup", "n7", "blue")],
            updated: [Self.tag("k1", "n1", "green")], deleted: [Self.tag("k2", "n2")])
        let plan = try SavePlanner.plan(request, over: source, storeIdentifier: "s", schema: Self.schema)
        // The same plan as the table makes itself.
        #expect(plan == (try table.plan(request)))
        #expect(plan.remappedIdentifiers.values.map(\.primaryKey) == ["k7"])
        // Rows: the four named models and the holder of "n7", each read once; holders: one per unique value.
        #expect(source.rowReads <= 5, "\(source.rowReads) rows read")
        #expect(source.holderReads <= 4, "\(source.holderReads) unique lookups")
    }

    @Test func updatesKeepingTheirUniqueValuesAskForNoHolder() throws {
        let table = try Self.table(of: 100)
        let source = CountingSource(table)
        let recolor = DataStoreSaveChangesRequest(
            updated: (0..<10).map { Self.tag("k\($0)", "n\($0)", "blue") })
        let plan = try SavePlanner.plan(recolor, over: source, storeIdentifier: "s", schema: Self.schema)
        #expect(plan == (try table.plan(recolor)))
        #expect(plan.changes.map(\.updatedAttributes) == Array(repeating: ["color"], count: 10))
        #expect(source.holderReads == 0, "\(source.holderReads) unique lookups")
        // A value another model holds is still asked for, and refused.
        #expect(throws: DataStoreError.self) {
            try SavePlanner.plan(
                DataStoreSaveChangesRequest(updated: [Self.tag("k1", "n2")]), over: source,
                storeIdentifier: "s",
                schema: Self.schema)
        }
        // Two models trading values in one save: the first to move frees its value for the second.
        let trade = DataStoreSaveChangesRequest(updated: [Self.tag("k1", "spare"), Self.tag("k2", "n1")])
        let traded = try SavePlanner.plan(trade, over: source, storeIdentifier: "s", schema: Self.schema)
        #expect(traded == (try table.plan(trade)))
        #expect(traded.changes.count == 2)
    }

    /// A schema without relationships skips the passes for them, yet an upsert still comes out as one change of
    /// its holder, and a holder the same save also updates still reports back the values it stores.
    @Test func upsertsWithoutRelationshipsStillFoldIntoOneChangeAndReportWhatIsStored() throws {
        let table = try Self.table(of: 10)
        let holder = PersistentIdentifier(storeIdentifier: "s", entityName: "Tag", primaryKey: "k7")
        // Two inserts of a value k7 holds: both become updates of k7.
        let twice = try table.plan(
            DataStoreSaveChangesRequest(inserted: [Self.tag("a", "n7", "blue"), Self.tag("b", "n7", "green")])
        )
        #expect(twice.changes.map(\.identifier) == [holder])
        #expect(twice.changes.first?.values["color"] == .string("green"))
        // An upsert of k7 and an update of k7: the insert sent blue, k7 stores green, and the save says so.
        let both = try table.plan(
            DataStoreSaveChangesRequest(
                inserted: [Self.tag("a", "n7", "blue")], updated: [Self.tag("k7", "n7", "green")]))
        #expect(both.changes.map(\.identifier) == [holder])
        #expect(both.remappedIdentifiers.values.map(\.primaryKey) == ["k7"])
        #expect(both.deleteRuleChanges.map(\.identifier) == [holder])
        #expect(both.deleteRuleChanges.first?.values == ["color": .string("green")])
    }
}
