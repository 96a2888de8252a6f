@_spi(DataStoreInternals) import DataStoreCore
import Foundation
import Synchronization

/// Atomic saves, unique values, invalid requests and concurrency.
enum SaveChecks {
    static func failedSaveLeavesNothingBehind<S>(_ h: Harness<S>) throws {
        let a = h.item("a")
        try h.save(inserted: [a])
        let before = try h.state()
        // A valid insert together with the delete of a model the store lacks (or, for an insert-only store,
        // any delete): the whole save must fail.
        let missing = h.item("missing")
        try h.expect.error(
            "the save to throw", matching: { _ in true },
            in: { try h.save(inserted: [h.item("b"), h.item("c")], deleted: [h.isInsertOnly ? a : missing]) })
        try h.expect.equal(try h.state(), before, "data and history after the failed save")
    }

    static func uniqueInsertUpserts<S>(_ h: Harness<S>) throws {
        let original = h.item("dup", value: 1)
        try h.save(inserted: [original])
        var duplicate = h.item("dup", value: 2)
        duplicate.persistentIdentifier = h.identifier("another-key")
        let result = try h.store.save(DataStoreSaveChangesRequest(inserted: [duplicate]))
        try h.expect.equal(
            result.remappedIdentifiers, [duplicate.persistentIdentifier: original.persistentIdentifier],
            "the remapped identifiers")
        try h.expect.equal(
            try h.items(),
            [h.changed(original, ["value": .integer(2), "timestamp": duplicate[attribute: "timestamp"]])],
            "the items")
        let last = try h.history().last?.changes ?? []
        try h.expect.equal(last.map(\.kind), [.update], "the change kinds of the upsert")
        try h.expect.equal(
            last.first?.changedPersistentIdentifier, original.persistentIdentifier, "the upserted model")
    }

    static func partialUpdatesMerge<S>(_ h: Harness<S>) throws {
        let a = h.item("a", value: 1, note: "first", tag: "red")
        try h.save(inserted: [a])
        // Two savers who read `a`: one changes the note, the other the value, each sending only its change.
        try h.save(updated: [
            DataStoreSnapshot(
                persistentIdentifier: a.persistentIdentifier, values: ["note": .string("second")])
        ])
        try h.save(updated: [
            DataStoreSnapshot(persistentIdentifier: a.persistentIdentifier, values: ["value": .integer(2)])
        ])
        try h.expect.equal(
            try h.items(), [h.changed(a, ["note": .string("second"), "value": .integer(2)])],
            "the item after two change sets")
        let updated = try h.history().suffix(2).map { $0.changes.map(\.updatedAttributes) }
        try h.expect.equal(updated, [[["note"]], [["value"]]], "the updated attributes of the two saves")
    }

    static func conflictingUpdateRejectedUnderErrorPolicy<S>(_ h: Harness<S>) throws {
        let a = h.item("a", note: "first")
        try h.save(inserted: [a])
        try h.save(updated: [h.changed(a, ["note": .string("theirs")])])
        let before = try h.state()
        let id = a.persistentIdentifier
        var stale = DataStoreSaveChangesRequest(
            updated: [DataStoreSnapshot(persistentIdentifier: id, values: ["note": .string("mine")])],
            baselines: [id: ["note": .string("first")]], mergePolicy: .error)
        try h.expect.error(
            "mergeConflict naming the item and 'note'",
            matching: { $0.code == .mergeConflict && $0.identifier == id && $0.attribute == "note" },
            in: { _ = try h.store.save(stale) })
        try h.expect.equal(try h.state(), before, "data and history after the refused save")
        stale.baselines = [id: ["note": .string("theirs")]]
        try h.performing("saving with a current baseline") { _ = try h.store.save(stale) }
        try h.expect.equal(
            try h.items().first?[attribute: "note"], .string("mine"), "the note after the save")
    }

    static func conflictingUpsertRejectedUnderErrorPolicy<S>(_ h: Harness<S>) throws {
        let a = h.item("a", value: 1, note: "first")
        try h.save(inserted: [a])
        let before = try h.state()
        // Another saver read no model named a and inserts its own, with baselines saying it read none.
        var mine = h.item("a", value: 2, note: "mine")
        mine.persistentIdentifier = h.identifier("another a")
        let id = mine.persistentIdentifier
        var request = DataStoreSaveChangesRequest(
            inserted: [mine], baselines: [id: mine.values.mapValues { _ in .null }], mergePolicy: .error)
        try h.expect.error(
            "mergeConflict naming the model that holds the name",
            matching: { $0.code == .mergeConflict && $0.identifier == a.persistentIdentifier },
            in: { _ = try h.store.save(request) })
        try h.expect.equal(try h.state(), before, "data and history after the refused save")
        // Baselines that are what the holder stores: the insert is an update of it, as without the policy.
        request.baselines = [id: a.values]
        let result = try h.performing("saving the insert with the holder's values as its baselines") {
            try h.store.save(request)
        }
        try h.expect.equal(
            result.remappedIdentifiers, [id: a.persistentIdentifier], "the remapped identifiers")
        try h.expect.equal(
            try h.items().first?[attribute: "note"], .string("mine"), "the note after the upsert")
    }

    static func uniqueValueGivenUpIsFreeForAnInsert<S>(_ h: Harness<S>) throws {
        let a = h.item("a", value: 1)
        try h.save(inserted: [a])
        // One save renames a to b and inserts a new model named a: two models, not an upsert of the first.
        var newA = h.item("a", value: 2)
        newA.persistentIdentifier = h.identifier("new a")
        let result = try h.performing("renaming a and inserting a new model of its old name in one save") {
            try h.store.save(
                DataStoreSaveChangesRequest(inserted: [newA], updated: [h.changed(a, ["name": .string("b")])])
            )
        }
        try h.expect.equal(result.remappedIdentifiers, [:], "the remapped identifiers")
        let names = try h.items().map {
            "\($0.persistentIdentifier.primaryKey): \($0[attribute: "name"]), \($0[attribute: "value"])"
        }
        try h.expect.equal(
            names.sorted(),
            [
                "\(a.persistentIdentifier.primaryKey): \(SnapshotValue.string("b")), \(SnapshotValue.integer(1))",
                "new a: \(SnapshotValue.string("a")), \(SnapshotValue.integer(2))",
            ].sorted(),
            "each model's name and value")
    }

    static func uniqueUpdateViolationRejected<S>(_ h: Harness<S>) throws {
        let a = h.item("a")
        let b = h.item("b")
        try h.save(inserted: [a, b])
        let before = try h.state()
        try h.expect.error(
            "uniqueConstraintViolation on 'name'",
            matching: {
                $0.code == .uniqueConstraintViolation && $0.attribute == "name"
            },
            in: {
                try h.save(updated: [h.changed(b, ["name": .string("a")])])
            })
        try h.expect.equal(try h.state(), before, "data and history after the rejected update")
    }

    static func missingModelRejected<S>(_ h: Harness<S>) throws {
        try h.save(inserted: [h.item("a")])
        let before = try h.state()
        let ghost = h.item("ghost")
        for request in [
            DataStoreSaveChangesRequest(updated: [ghost]), DataStoreSaveChangesRequest(deleted: [ghost]),
        ] {
            try h.expect.error(
                "modelNotFound for \(ghost.persistentIdentifier)",
                matching: {
                    $0 == .modelNotFound(store: h.store.identifier, identifier: ghost.persistentIdentifier)
                },
                in: {
                    _ = try h.store.save(request)
                })
        }
        try h.expect.equal(try h.state(), before, "data and history after the rejected saves")
    }

    static func duplicateModelInRequestRejected<S>(_ h: Harness<S>) throws {
        try h.save(inserted: [h.item("a")])
        let before = try h.state()
        let twice = h.item("twice")
        try h.expect.error(
            "the save naming one model twice to throw", matching: { _ in true },
            in: { try h.save(inserted: [twice, h.item("other"), twice]) })
        try h.expect.equal(try h.state(), before, "data and history after the rejected save")
    }

    static func concurrentSavesRecordedOnce<S>(_ h: Harness<S>) throws {
        let store = h.store
        let tasks = 8
        let savesPerTask = 25
        let prototypes = (0..<tasks).map { task in (0..<savesPerTask).map { h.item("c\(task)-\($0)") } }
        // Eight real threads, not the cooperative pool or a dispatch queue, which may run the work one item
        // at a time when other work fills them: the saves must overlap.
        let errors = Lock<[String]>([])
        let finished = DispatchGroup()
        for task in 0..<tasks {
            finished.enter()
            let items = prototypes[task]
            Thread.detachNewThread {
                defer { finished.leave() }
                for item in items {
                    do {
                        _ = try store.save(
                            DataStoreSaveChangesRequest(
                                editingState: EditingState(author: "task\(task)"), inserted: [item]))
                    } catch {
                        errors.withLock { $0.append("\(error)") }
                    }
                }
            }
        }
        finished.wait()
        try h.expect.equal(errors.withLock { $0 }, [], "errors from concurrent saves")
        let history = try h.history()
        try h.expect.equal(history.count, tasks * savesPerTask, "the transaction count")
        let changed = history.flatMap(\.changes).map(\.changedPersistentIdentifier)
        try h.expect.equal(
            Set(changed), Set(prototypes.joined().map(\.persistentIdentifier)), "the saved models")
        try h.expect.equal(changed.count, tasks * savesPerTask, "the change count")
        let tokens = history.map(\.token)
        try h.expect.that(
            zip(tokens, tokens.dropFirst()).allSatisfy { $0 < $1 }, "strictly increasing tokens",
            observed: "\(tokens)")
        try h.expect.equal(try h.items().count, tasks * savesPerTask, "the item count")
    }
}
