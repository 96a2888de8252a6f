import DataStoreCore
import Foundation

/// Previous values in history: what an update or delete replaced, for the attributes marked
/// `.preservePreviousValue` (``ConformanceItem``'s `value` and `tag`; the entry's `name` and `folder` and the
/// folder's `entries`).
enum PreviousValueChecks {
    static func previousValuesAreTheReplacedValues<S>(_ h: Harness<S>) throws {
        let a = h.item("a", value: 1, tag: "first")
        try h.save(inserted: [a])
        let second = h.changed(a, ["value": .integer(2)])
        try h.save(updated: [second])
        let third = h.changed(second, ["value": .integer(3), "tag": .string("second")])
        try h.save(updated: [third])
        try h.save(deleted: [third])
        let previous = try h.history().map { $0.changes.first?.previousValues }
        try h.expect.equal(
            previous,
            [
                nil, ["value": .integer(1)], ["value": .integer(2), "tag": .string("first")],
                ["value": .integer(3), "tag": .string("second")],
            ],
            "the previous values of the insert, two updates and the delete")
    }

    static func previousValuesOnlyWhereAsked<S>(_ h: Harness<S>) throws {
        let a = h.item("a", value: 1, note: "old", tag: "t")
        try h.save(inserted: [a])
        let noted = h.changed(a, ["note": .string("new")])
        try h.save(updated: [noted])
        try h.save(updated: [h.changed(noted, ["note": .string("newer"), "value": .integer(5)])])
        let changes = try h.history().compactMap(\.changes.first)
        try h.expect.equal(
            changes.map { $0.previousValues.map { Set($0.keys) } }, [nil, nil, ["value"]],
            "the attributes with previous values: none for the insert, none for an update of `note` only, "
                + "`value` only for an update of `note` and `value`")
    }

    static func previousValuesSurviveReopening<S>(_ h: Harness<S>) throws {
        let a = h.item("a", value: 1, tag: "t")
        try h.save(inserted: [a])
        try h.save(updated: [h.changed(a, ["value": .integer(2)])])
        let before = try h.history().map { $0.changes.map(\.previousValues) }
        try h.reopen()
        try h.expect.equal(
            try h.history().map { $0.changes.map(\.previousValues) }, before,
            "the previous values after reopening")
        try h.expect.equal(
            before.last, [["value": .integer(1)]], "the update's previous values before reopening")
    }

    static func previousValuesOfOneSaveAreItsStartingValues<S>(_ h: Harness<S>) throws {
        let a = h.entry("a")
        let left = h.folder("left", entries: [a])
        let right = h.folder("right", entries: [])
        try h.save(inserted: [h.linked(a, to: left), left, right])
        // One save renames the entry and moves it: the entry changes through the request and again through
        // the inverse of the right folder's list; the left folder loses it through the inverse.
        try h.save(updated: [
            DataStoreSnapshot(persistentIdentifier: a.persistentIdentifier, values: ["name": .string("b")]),
            DataStoreSnapshot(
                persistentIdentifier: right.persistentIdentifier,
                values: ["entries": .array([.identifier(a.persistentIdentifier)])]),
        ])
        let changes = try h.history().last?.changes ?? []
        let byModel = Dictionary(
            changes.map { ($0.changedPersistentIdentifier.primaryKey, $0.previousValues ?? [:]) }
        ) { first, _ in first }
        try h.expect.equal(
            byModel,
            [
                "a": ["name": .string("a"), "folder": .identifier(left.persistentIdentifier)],
                "right": ["entries": .array([])],
                "left": ["entries": .array([.identifier(a.persistentIdentifier)])],
            ],
            "each model's previous values: what it held before the save, once")
    }
}
