import DataStoreCore
import DataStoreKit
import Foundation
import Testing

/// A batch delete is planned from the rows its predicate matched, and its deletes are applied together: both
/// must leave exactly what planning and applying a save that deletes the same rows, one by one, leaves.
@Suite struct BatchDeletePlanTests {
    static let schema = Schema(entities: [
        .init(
            name: "Item",
            attributes: [
                .init(name: "title", options: .preserveValueOnDeletion),
                .init(name: "group"),
                .init(name: "code", options: .unique),
                .init(name: "note", options: .preservePreviousValue),
            ],
            indexes: [["group"]]),
        .init(
            name: "Folder", attributes: [.init(name: "name"), .init(name: "files")],
            relationships: [
                .init(
                    name: "files", destination: "File", isToMany: true, deleteRule: .cascade,
                    inverse: "folder")
            ]),
        .init(
            name: "File",
            attributes: [.init(name: "name", options: .preserveValueOnDeletion), .init(name: "folder")],
            relationships: [.init(name: "folder", destination: "Folder", isToMany: false, inverse: "files")]),
    ])

    /// A model of `Item`, for predicates.
    struct Item: PersistentModel {
        static let schemaAttributes: [ModelAttribute<Item>] = [
            .attribute("title", \.title), .attribute("group", \.group), .attribute("code", \.code),
            .attribute("note", \.note),
        ]
        var persistentModelID = PersistentIdentifier()
        var title = ""
        var group = 0
        var code = ""
        var note = ""
        init() {}
    }

    /// A model of `Folder`, for predicates: its relationship is in the schema only.
    struct Folder: PersistentModel {
        static let schemaAttributes: [ModelAttribute<Folder>] = [.attribute("name", \.name)]
        var persistentModelID = PersistentIdentifier()
        var name = ""
        init() {}
    }

    static func id(_ entity: String, _ key: String) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: "items", entityName: entity, primaryKey: key)
    }

    /// Items 0..<count in groups of `index % 4`, inserted in a scrambled order.
    static func items(_ count: Int) throws -> SnapshotTable {
        var table = SnapshotTable(storeIdentifier: "items", schema: schema)
        let rows = (0..<count).map { ($0 * 37) % count }.map { index in
            DataStoreSnapshot(
                persistentIdentifier: id("Item", String(format: "i%03d", index)),
                values: [
                    "title": .string("item \(index)"), "group": .integer(Int64(index % 4)),
                    "code": .string("c\(index)"), "note": .string("note \(index)"),
                ])
        }
        table.apply(try table.plan(DataStoreSaveChangesRequest(inserted: rows)))
        return table
    }

    /// The plan of a save that deletes `rows`, in identifier order, made by the general planner.
    static func savePlan(deleting rows: [DataStoreSnapshot], in table: SnapshotTable) throws -> SavePlan {
        let ordered = rows.map(\.persistentIdentifier).sorted()
        return try table.plan(
            DataStoreSaveChangesRequest(
                deleted: ordered.map { DataStoreSnapshot(persistentIdentifier: $0, values: [:]) }))
    }

    @Test func aBatchDeletePlansWhatASaveOfItsMatchesPlans() throws {
        let table = try Self.items(200)
        let all = Array(table.rows(of: "Item"))
        let cases: [(Predicate<Item>?, (DataStoreSnapshot) -> Bool)] = [
            (#Predicate { $0.group == 2 }, { $0[attribute: "group"] == .integer(2) }),
            (#Predicate { $0.title.contains("1") }, { "\($0[attribute: "title"])".contains("1") }),
            (#Predicate { $0.group == 7 }, { _ in false }),
            // The index picks the candidates; the rest of the predicate still decides.
            (
                #Predicate { $0.group == 2 && $0.title.contains("1") },
                { $0[attribute: "group"] == .integer(2) && "\($0[attribute: "title"])".contains("1") }
            ),
            (nil, { _ in true }),
        ]
        for (predicate, matches) in cases {
            var examined = 0
            let plan = try table.plan(
                deleting: DataStoreBatchDeleteRequest<Item>(predicate: predicate), modelsExamined: &examined)
            let expected = try Self.savePlan(deleting: all.filter(matches), in: table)
            #expect(plan == expected)
            #expect(plan.changes.count == all.filter(matches).count)
        }
        // The changes carry what a delete records: the tombstone and the previous values.
        var examined = 0
        let plan = try table.plan(
            deleting: DataStoreBatchDeleteRequest<Item>(predicate: #Predicate { $0.code == "c5" }),
            modelsExamined: &examined)
        #expect(plan.changes.map(\.kind) == [.delete])
        #expect(plan.changes.first?.tombstone == ["title": .string("item 5")])
        #expect(plan.changes.first?.previousValues == ["note": .string("note 5")])
    }

    /// An entity with relationships goes through the delete rules: deleting folders cascades to their files.
    @Test func aBatchDeleteOfAnEntityWithRelationshipsFollowsItsDeleteRules() throws {
        var table = SnapshotTable(storeIdentifier: "items", schema: Self.schema)
        let folder = Self.id("Folder", "f1")
        let files = [Self.id("File", "a"), Self.id("File", "b")]
        table.apply(
            try table.plan(
                DataStoreSaveChangesRequest(
                    inserted: [
                        DataStoreSnapshot(
                            persistentIdentifier: folder,
                            values: [
                                "name": .string("docs"), "files": .array(files.map(SnapshotValue.identifier)),
                            ])
                    ]
                        + files.map {
                            DataStoreSnapshot(
                                persistentIdentifier: $0,
                                values: ["name": .string($0.primaryKey), "folder": .identifier(folder)])
                        })))
        var examined = 0
        let plan = try table.plan(
            deleting: DataStoreBatchDeleteRequest<Folder>(predicate: #Predicate { $0.name == "docs" }),
            modelsExamined: &examined)
        #expect(plan.changes.map(\.identifier) == [folder] + files)
        #expect(plan.changes.allSatisfy { $0.kind == .delete })
        #expect(plan.deleteRuleChanges.map(\.identifier) == files)
        #expect(plan == (try Self.savePlan(deleting: [table[folder]!], in: table)))
    }

    /// Deletes applied together leave the rows, unique values and index entries that applying each one leaves:
    /// a whole group's entry, part of another's, and runs of alternating groups.
    @Test func deletesAppliedTogetherLeaveWhatDeletesAppliedOneByOneLeave() throws {
        let original = try Self.items(120)
        let keys = (0..<120).map { String(format: "i%03d", $0) }
        let selections: [[String]] = [
            keys.filter { Int($0.dropFirst())! % 4 == 2 },  // all of group 2
            keys.filter { Int($0.dropFirst())! % 8 == 1 },  // half of group 1
            Array(keys[10..<30]),  // every group, alternating
            keys.filter { Int($0.dropFirst())! % 4 == 3 } + keys.filter { Int($0.dropFirst())! % 8 == 0 },
        ]
        for selected in selections {
            let plan = try original.plan(
                DataStoreSaveChangesRequest(
                    deleted: selected.map {
                        DataStoreSnapshot(persistentIdentifier: Self.id("Item", $0), values: [:])
                    }))
            // A table of its own (copies share the order a table keeps), with that order made before the
            // deletes: in identifier order they come out of it in place, otherwise it is dropped.
            var together = try Self.items(120)
            _ = Self.everyKey(together)
            together.apply(plan)
            var oneByOne = original
            for change in plan.changes { oneByOne.apply(change) }
            #expect(Self.contents(of: together) == Self.contents(of: oneByOne))
            #expect(together.count == 120 - selected.count)
            // A code freed by the delete is free: inserting it again makes a new model, not an upsert.
            let freed = try together.plan(
                DataStoreSaveChangesRequest(inserted: [
                    DataStoreSnapshot(
                        persistentIdentifier: Self.id("Item", "new"),
                        values: ["code": .string("c\(Int(selected[0].dropFirst())!)")])
                ]))
            #expect(freed.remappedIdentifiers.isEmpty)
        }
    }

    /// A bulk insert's rows are put in together too: the table must answer as if each insert were applied
    /// alone, also for an insert over a row that is there (no plan makes one; the table replaces the row).
    @Test func insertsAppliedTogetherLeaveWhatInsertsAppliedOneByOneLeave() throws {
        let original = try Self.items(40)
        let scrambled: [Int] = (0..<80).map { ($0 * 37) % 80 + 40 }
        let fresh = scrambled.map { (index: Int) -> PlannedChange in
            let values: [String: SnapshotValue] = [
                "title": .string("item \(index)"), "group": .integer(Int64(index % 4)),
                "code": .string("c\(index)"), "note": .string("note \(index)"),
            ]
            return PlannedChange(
                kind: .insert, identifier: Self.id("Item", String(format: "i%03d", index)), values: values)
        }
        // Item 5 again, in group 3 (it was in group 1) and without its code, which is then free.
        let over = PlannedChange(
            kind: .insert, identifier: Self.id("Item", "i005"),
            values: ["title": .string("item 5 again"), "group": .integer(3)])
        for changes in [fresh, fresh + [over], [over] + fresh, [over]] {
            // The order the table keeps is made first, so that the inserts must drop it.
            var together = try Self.items(40)
            _ = Self.everyKey(together)
            together.apply(changes)
            var oneByOne = original
            for change in changes { oneByOne.apply(change) }
            #expect(Self.contents(of: together) == Self.contents(of: oneByOne))
            #expect(together.count == 40 + (changes.count == 1 ? 0 : 80))
            #expect(Self.everyKey(together).count == together.count)
        }
    }

    /// The keys of every row, in the order the table keeps (and makes, when it keeps none).
    static func everyKey(_ table: SnapshotTable) -> [String] {
        table.candidates(for: FetchDescriptor<Item>(), bounds: ModelPredicateBounds<Item>(nil))
            .map(\.persistentIdentifier.primaryKey)
    }

    /// What a table answers: its rows, every row in the order it keeps, the holder of every code, and the rows a fetch finds by an equality and
    /// by a range on the indexed group.
    static func contents(of table: SnapshotTable) -> [String] {
        var lines = table.rows(of: "Item").map {
            "\($0.persistentIdentifier.primaryKey) \($0.values.sorted { $0.key < $1.key })"
        }
        .sorted()
        // Every row, in the order the table keeps.
        lines.append("\(everyKey(table))")
        for index in 0..<120 {
            let holder = table.uniqueHolder(
                entity: "Item", attributes: ["code"], values: [.string("c\(index)")])
            lines.append("c\(index) held by \(holder?.primaryKey ?? "nobody")")
        }
        for group in 0..<4 {
            let value = group
            for descriptor in [
                FetchDescriptor<Item>(predicate: #Predicate { $0.group == value }),
                FetchDescriptor<Item>(predicate: #Predicate { $0.group >= value }),
            ] {
                let candidates = table.candidates(for: descriptor).map(\.persistentIdentifier.primaryKey)
                lines.append("group \(group): \(candidates.sorted())")
            }
        }
        return lines
    }
}
