import DataStoreCore
import Foundation

/// Deleting by predicate (`DataStoreBatching`): exactly the matches, as one transaction, with delete rules.
enum BatchDeleteChecks {
    /// The store as `DataStoreBatching`, or a failure saying it does not conform.
    static func batching<S>(_ h: Harness<S>) throws -> any DataStoreBatching {
        guard let batching = h.store as? any DataStoreBatching else {
            throw h.expect.failure(
                expected: "a store that conforms to DataStoreBatching (the capabilities say .batchDeletes)",
                observed: "\(S.self) does not")
        }
        return batching
    }

    /// Runs a batch delete as a harness operation.
    static func delete<S, T: PersistentModel>(
        _ h: Harness<S>, _ request: DataStoreBatchDeleteRequest<T>, _ what: String
    ) throws {
        let store = try batching(h)
        try h.performing("delete(DataStoreBatchDeleteRequest<\(T.self)>) \(what)") {
            try store.delete(request)
        }
    }

    static func batchDeleteRemovesExactlyTheMatches<S>(_ h: Harness<S>) throws {
        let items = (0..<6).map { h.item("i\($0)", value: $0) }
        try h.save(inserted: items)
        try delete(
            h, DataStoreBatchDeleteRequest(predicate: #Predicate<ConformanceItem> { $0.value >= 3 }),
            "value >= 3")
        try h.expect.equal(
            Set(try h.items().map(\.persistentIdentifier.primaryKey)), ["i0", "i1", "i2"],
            "the items left after deleting those with value >= 3")
        let before = try h.history().count
        try delete(
            h, DataStoreBatchDeleteRequest(predicate: #Predicate<ConformanceItem> { $0.value > 100 }),
            "matching nothing")
        try h.expect.equal(
            try h.history().count, before, "the transactions after a batch delete that matches nothing")
        try delete(h, DataStoreBatchDeleteRequest<ConformanceItem>(), "without a predicate")
        try h.expect.equal(try h.items().count, 0, "the items left after a batch delete without a predicate")
    }

    static func batchDeleteIsOneTransaction<S>(_ h: Harness<S>) throws {
        let items = (0..<5).map { h.item("i\($0)", value: $0, note: "n\($0)", tag: "t\($0)") }
        try h.save(inserted: items)
        let before = try h.history().count
        try delete(
            h,
            DataStoreBatchDeleteRequest(
                predicate: #Predicate<ConformanceItem> { $0.value == 1 || $0.value == 3 },
                editingState: EditingState(author: "batch")),
            "value 1 or 3")
        let history = try h.history()
        try h.expect.equal(history.count, before + 1, "the transactions after one batch delete of two items")
        let transaction = history.last
        try h.expect.equal(transaction?.author, "batch", "the batch delete's author")
        let changes = transaction?.changes ?? []
        try h.expect.equal(
            Set(changes.map { "\($0.kind) \($0.changedPersistentIdentifier.primaryKey)" }),
            ["delete i1", "delete i3"], "the batch delete's changes")
        try h.expect.equal(
            Set(changes.compactMap { $0.tombstone.map { "\($0["name"] ?? .null) \($0["tag"] ?? .null)" } }),
            [
                "\(SnapshotValue.string("i1")) \(SnapshotValue.string("t1"))",
                "\(SnapshotValue.string("i3")) \(SnapshotValue.string("t3"))",
            ],
            "the tombstones (name and tag are preserved)")
    }

    static func batchDeleteAppliesDeleteRules<S>(_ h: Harness<S>) throws {
        let a = h.entry("a")
        let b = h.entry("b")
        let other = h.entry("other")
        let doomed = h.folder("doomed", entries: [a, b])
        let kept = h.folder("kept", entries: [other])
        try h.save(inserted: [
            h.linked(a, to: doomed), h.linked(b, to: doomed), h.linked(other, to: kept), doomed, kept,
        ])
        let before = try h.history().count
        try delete(
            h, DataStoreBatchDeleteRequest(predicate: #Predicate<ConformanceFolder> { $0.name == "doomed" }),
            "of the folder named doomed")
        let history = try h.history()
        try h.expect.equal(history.count, before + 1, "the transactions after the batch delete")
        try h.expect.equal(
            Set(
                (history.last?.changes ?? []).map {
                    "\($0.kind) \($0.changedPersistentIdentifier.primaryKey)"
                }),
            ["delete doomed", "delete a", "delete b"], "the batch delete's changes, its cascade included")
        try h.expect.equal(
            try h.rows(ConformanceEntry.self).map(\.persistentIdentifier), [other.persistentIdentifier],
            "the entries left")
    }
}
