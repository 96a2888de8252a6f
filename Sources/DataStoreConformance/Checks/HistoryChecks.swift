import DataStoreCore
import Foundation

/// What history records about each save.
enum HistoryChecks {
    static func oneTransactionPerSave<S>(_ h: Harness<S>) throws {
        let sizes = [1, 3, 2, 5, 1]
        for (batch, size) in sizes.enumerated() {
            try h.save(inserted: (0..<size).map { h.item("b\(batch)-\($0)") })
        }
        try h.expect.equal(
            try h.history().map(\.changes.count), sizes, "the change count of each transaction")
    }

    static func historyInCommitOrder<S>(_ h: Harness<S>) throws {
        let tokens = try h.saveItems((0..<8).map { "n\($0)" })
        try h.expect.equal(
            try h.history().map(\.token), tokens, "the tokens of history, in the order of the saves")
    }

    static func changesInRequestOrder<S>(_ h: Harness<S>) throws {
        let names = ["e", "b", "d", "a", "c"]
        let items = names.map { h.item($0) }
        try h.save(inserted: items)
        let changed = try h.history().flatMap(\.changes).map(\.changedPersistentIdentifier)
        try h.expect.equal(
            changed, items.map(\.persistentIdentifier), "the changed identifiers, in request order")
        guard !h.isInsertOnly else { return }
        let updates = [items[3], items[0], items[2]].map { h.changed($0, ["value": .integer(9)]) }
        try h.save(updated: updates)
        let updated = try h.history().last?.changes.map(\.changedPersistentIdentifier) ?? []
        try h.expect.equal(
            updated, updates.map(\.persistentIdentifier), "the updated identifiers, in request order")
    }

    static func oneChangePerModel<S>(_ h: Harness<S>) throws {
        try h.save(inserted: (0..<6).map { h.item("m\($0)") })
        for transaction in try h.history() {
            let ids = transaction.changes.map(\.changedPersistentIdentifier)
            try h.expect.equal(
                Set(ids).count, ids.count,
                "distinct models in transaction \(transaction.transactionIdentifier)")
        }
    }

    static func changeKindsRecorded<S>(_ h: Harness<S>) throws {
        let a = h.item("a")
        let b = h.item("b")
        try h.save(inserted: [a, b])
        var expected: [[HistoryChangeKind]] = [[.insert, .insert]]
        if !h.isInsertOnly {
            try h.save(updated: [h.changed(a, ["value": .integer(1)])])
            try h.save(deleted: [b])
            expected += [[.update], [.delete]]
        }
        try h.expect.equal(
            try h.history().map { $0.changes.map(\.kind) }, expected, "the change kinds per transaction")
    }

    static func updatedAttributesExact<S>(_ h: Harness<S>) throws {
        let a = h.item("a", value: 1, note: "old", tag: "t")
        try h.save(inserted: [a])
        try h.save(updated: [
            h.changed(a, ["value": .integer(2), "note": .string("new"), "tag": .string("t")])
        ])
        let change = try h.history().last?.changes.first
        try h.expect.equal(
            change?.updatedAttributes ?? [], ["note", "value"], "updatedAttributes of the update")
    }

    static func tombstoneHoldsOnlyPreservedAttributes<S>(_ h: Harness<S>) throws {
        let a = h.item("a", value: 4, note: "gone", tag: "kept")
        try h.save(inserted: [a])
        try h.save(deleted: [a])
        let tombstone = try h.history().last?.changes.first?.tombstone
        try h.expect.equal(
            tombstone.map { Set($0.keys) }, ["name", "tag"], "the tombstone's attribute names")
    }

    static func tombstoneValuesAreTheDeletedValues<S>(_ h: Harness<S>) throws {
        let a = h.item("a", tag: "first")
        try h.save(inserted: [a])
        let retagged = h.changed(a, ["tag": .string("second")])
        try h.save(updated: [retagged])
        try h.save(deleted: [retagged])
        let tombstone = try h.history().last?.changes.first?.tombstone
        try h.expect.equal(
            tombstone, ["name": .string("a"), "tag": .string("second")], "the tombstone of the deleted model")
    }

    static func changeDetailsOnlyWhereTheyBelong<S>(_ h: Harness<S>) throws {
        let a = h.item("a")
        try h.save(inserted: [a])
        if !h.isInsertOnly {
            try h.save(updated: [h.changed(a, ["note": .string("x")])])
            try h.save(deleted: [a])
        }
        for change in try h.history().flatMap(\.changes) {
            switch change.kind {
            case .insert:
                try h.expect.that(
                    change.updatedAttributes.isEmpty && change.tombstone == nil, "an insert without details",
                    observed:
                        "updatedAttributes \(change.updatedAttributes), tombstone \(String(describing: change.tombstone))"
                )
            case .update:
                try h.expect.that(
                    change.tombstone == nil, "an update without a tombstone",
                    observed: "tombstone \(String(describing: change.tombstone))")
            case .delete:
                try h.expect.that(
                    change.updatedAttributes.isEmpty, "a delete without updated attributes",
                    observed: "updatedAttributes \(change.updatedAttributes)")
            }
        }
    }

    static func authorRecorded<S>(_ h: Harness<S>) throws {
        try h.save(inserted: [h.item("a")], author: "widget")
        try h.save(inserted: [h.item("b")], author: "app")
        try h.save(inserted: [h.item("c")])
        try h.expect.equal(
            try h.history().map(\.author), ["widget", "app", nil], "the authors of the three saves")
    }

    static func bundleAndProcessRecorded<S>(_ h: Harness<S>) throws {
        let state = EditingState(
            author: nil, bundleIdentifier: "com.example.conformance", processIdentifier: "4242")
        _ = try h.store.save(DataStoreSaveChangesRequest(editingState: state, inserted: [h.item("a")]))
        let transaction = try h.history().first
        try h.expect.equal(transaction?.bundleIdentifier, "com.example.conformance", "bundleIdentifier")
        try h.expect.equal(transaction?.processIdentifier, "4242", "processIdentifier")
    }

    static func storeIdentifierRecorded<S>(_ h: Harness<S>) throws {
        try h.expect.equal(h.store.identifier, h.context.storeName, "the store identifier")
        try h.save(inserted: [h.item("a"), h.item("b")])
        for transaction in try h.history() {
            try h.expect.equal(
                transaction.storeIdentifier, h.context.storeName, "the transaction's storeIdentifier")
            for change in transaction.changes {
                try h.expect.equal(
                    change.changedPersistentIdentifier.storeIdentifier, h.context.storeName,
                    "the changed identifier's store")
            }
        }
    }

    static func timestampsNondecreasing<S>(_ h: Harness<S>) throws {
        let start = Date()
        _ = try h.saveItems((0..<10).map { "t\($0)" })
        let end = Date()
        let stamps = try h.history().map(\.timestamp)
        try h.expect.that(
            zip(stamps, stamps.dropFirst()).allSatisfy { $0 <= $1 }, "timestamps that never decrease",
            observed: "\(stamps)")
        try h.expect.that(
            stamps.allSatisfy { $0 >= start.addingTimeInterval(-1) && $0 <= end.addingTimeInterval(1) },
            "timestamps within a second of the saves",
            observed: "\(stamps) for saves between \(start) and \(end)")
    }

    static func identifiersUniqueAndIncreasing<S>(_ h: Harness<S>) throws {
        for batch in 0..<4 {
            try h.save(inserted: (0..<3).map { h.item("i\(batch)-\($0)") })
        }
        let history = try h.history()
        let transactionIDs = history.map(\.transactionIdentifier)
        try h.expect.equal(
            Set(transactionIDs).count, transactionIDs.count, "distinct transaction identifiers")
        let changeIDs = history.flatMap(\.changes).map(\.changeIdentifier)
        try h.expect.that(
            zip(changeIDs, changeIDs.dropFirst()).allSatisfy { $0 < $1 },
            "change identifiers growing in commit order",
            observed: "\(changeIDs)")
    }

    /// Applies only when the store's changes conform to `ValueRecordingHistoryChange`; a store whose changes
    /// record nothing passes trivially.
    static func recordedValuesExact<S>(_ h: Harness<S>) throws {
        let a = h.item("a", value: 1, note: "first", tag: "t")
        try h.save(inserted: [a])
        var expected: [[String: SnapshotValue]] = [a.values]
        if !h.isInsertOnly {
            try h.save(updated: [h.changed(a, ["value": .integer(2), "note": .string("second")])])
            try h.save(deleted: [h.changed(a, ["value": .integer(2), "note": .string("second")])])
            expected += [["value": .integer(2), "note": .string("second")], [:]]
        }
        let recorded = try h.history().flatMap(\.changes).compactMap {
            ($0 as? any ValueRecordingHistoryChange)?.values
        }
        guard !recorded.isEmpty else { return }
        try h.expect.equal(recorded, expected, "the values recorded by the insert, the update and the delete")
    }
}
