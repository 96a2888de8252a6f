import DataStoreCore
import Foundation

/// Schema records and migrations (`SchemaMigrating`): a store remembers the schema it holds, applies safe
/// differences, and refuses unsafe ones without changing anything.
enum SchemaChecks {
    /// The store as `SchemaMigrating`; the check is skipped for a store that does not record its schema.
    static func migrating<S>(_ h: Harness<S>) throws -> any SchemaMigrating {
        guard let migrating = h.store as? any SchemaMigrating else {
            throw ConformanceSkip(reason: "\(S.self) does not conform to SchemaMigrating")
        }
        return migrating
    }

    static func recorded<S>(_ h: Harness<S>) throws -> Schema? {
        try h.performing("recordedSchema()") { try migrating(h).recordedSchema() }
    }

    static func schemaIsRecorded<S>(_ h: Harness<S>) throws {
        _ = try migrating(h)
        _ = try h.saveItems(["a", "b"])
        try h.expect.equal(
            try recorded(h)?.storageLayout, ConformanceItem.schema.storageLayout,
            "the recorded schema, as the store was opened with it")
        var versioned = ConformanceItem.schema
        versioned.version = Schema.Version(2, 0, 0)
        _ = try h.performing("migrate(to: the same schema at version 2.0.0)") {
            try migrating(h).migrate(to: versioned, applying: nil)
        }
        try h.expect.equal(try recorded(h)?.version, Schema.Version(2, 0, 0), "the recorded version")
        guard h.capabilities.contains(.durable) else { return }
        try h.reopen()
        try h.expect.equal(
            try recorded(h)?.version, Schema.Version(2, 0, 0), "the recorded version after reopening")
        try h.expect.equal(
            try recorded(h)?.storageLayout, ConformanceItem.schema.storageLayout,
            "the recorded schema after reopening")
    }

    static func lightweightMigrationKeepsRows<S>(_ h: Harness<S>) throws {
        _ = try migrating(h)
        let originals = [
            h.item("a", value: 1, note: "first", tag: "x"), h.item("b", value: 2, note: "second"),
        ]
        _ = try h.save(inserted: originals)
        let transactions = try h.history().count
        // A declared version: removing an attribute that holds values needs one.
        let revised = Schema([ConformanceItemRevised.self], version: Schema.Version(2, 0, 0))
        _ = try h.performing("migrate(to: note renamed to remark, rating added, tag removed)") {
            try migrating(h).migrate(to: revised, applying: nil)
        }
        let rows = try h.performing("fetch as the revised model") {
            try h.store.fetch(
                DataStoreFetchRequest(
                    descriptor: FetchDescriptor<ConformanceItemRevised>(sortBy: [SortDescriptor(\.name)]))
            ).snapshots
        }
        let expected: [[String: SnapshotValue]] = originals.map { original in
            [
                "name": original.values["name"] ?? .null, "value": original.values["value"] ?? .null,
                "remark": original.values["note"] ?? .null, "rating": .integer(7),
                "timestamp": original.values["timestamp"] ?? .null,
            ]
        }
        try h.expect.equal(
            rows.map(\.values), expected, "every row renamed, filled in and without the removed value")
        try h.expect.equal(
            try h.history().count, transactions, "history transactions (a lightweight migration adds none)")
        try h.expect.equal(try recorded(h)?.storageLayout, revised.storageLayout, "the recorded schema")
    }

    static func unsafeSchemaChangeRefused<S>(_ h: Harness<S>) throws {
        _ = try migrating(h)
        _ = try h.save(inserted: [h.item("a", value: 1, note: "same"), h.item("b", value: 2, note: "same")])
        let before = try h.state()
        let recordedBefore = try recorded(h)
        var entity = ConformanceItem.schema.entities[0]
        var kindChanged = entity
        kindChanged.attributes = entity.attributes.map { attribute in
            var attribute = attribute
            if attribute.name == "value" { attribute.valueKind = "string" }
            return attribute
        }
        entity.attributes = entity.attributes.map { attribute in
            var attribute = attribute
            if attribute.name == "note" { attribute.options.insert(.unique) }
            return attribute
        }
        let cases: [(String, Schema, String?)] = [
            ("a change of value kind (integer → string)", Schema(entities: [kindChanged]), "value"),
            ("`.unique` added where two stored values collide", Schema(entities: [entity]), "note"),
            ("the removal of an entity that holds rows", Schema(entities: []), nil),
        ]
        for (name, schema, attribute) in cases {
            try h.expect.error(
                "incompatibleSchema naming \(ConformanceItem.entityName)\(attribute.map { ".\($0)" } ?? "") for \(name)",
                matching: {
                    $0.code == .incompatibleSchema && $0.entity == ConformanceItem.entityName
                        && $0.attribute == attribute
                },
                in: { try migrating(h).migrate(to: schema, applying: nil) })
            try h.expect.equal(try h.state(), before, "data and history after refusing \(name)")
            try h.expect.equal(try recorded(h), recordedBefore, "the recorded schema after refusing \(name)")
        }
    }
}
