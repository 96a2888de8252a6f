import DataStoreCore
import Foundation

/// Checks that apply only to stores with a capability.
enum CapabilityChecks {
    static func reopenKeepsDataHistoryAndTokens<S>(_ h: Harness<S>) throws {
        let tokens = try h.saveItems(["a", "b", "c"], author: "widget")
        let items = Set(try h.items())
        let history = try h.history().map(\.token)
        try h.reopen()
        try h.expect.equal(Set(try h.items()), items, "the items after reopening")
        try h.expect.equal(try h.history().map(\.token), history, "the history tokens after reopening")
        try h.expect.equal(
            try h.history().map(\.author), ["widget", "widget", "widget"], "the authors after reopening")
        let after = try h.history(HistoryDescriptor(predicate: HistoryPredicates.after(tokens[0])))
        try h.expect.equal(
            after.map(\.token), Array(tokens[1...]), "the tokens after the first, after reopening")
        let next = try h.saveItems(["d"])[0]
        try h.expect.that(
            tokens[2] < next, "a save after reopening to continue the sequence",
            observed: "\(next) after \(tokens[2])")
    }

    static func secondInstanceSeesCommits<S>(_ h: Harness<S>) throws {
        let first = try h.saveItems(["a", "b"], author: "first")
        let second = try h.openAnotherInstance()
        let seen = try second.fetchHistory(HistoryDescriptor()).map(\.token)
        try h.expect.equal(seen, first, "the second instance's history after the first saved twice")
        let items = try second.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<ConformanceItem>()))
        try h.expect.equal(items.snapshots.count, 2, "the items the second instance fetches")
        let next = try second.save(DataStoreSaveChangesRequest(inserted: [h.item("c")])).token
        try h.expect.that(
            next.map { first[1] < $0 } ?? false, "the second instance's save to continue the sequence",
            observed: "\(next.map(String.init(describing:)) ?? "no token") after \(first[1])")
        try h.expect.equal(
            try h.history().map(\.token), first + [next].compactMap { $0 },
            "the first instance's history after the second saved")
    }

    static func rejectsAtomically<S>(_ h: Harness<S>, kind: HistoryChangeKind) throws {
        let a = h.item("a")
        try h.save(inserted: [a])
        let before = try h.state()
        let request =
            kind == .update
            ? DataStoreSaveChangesRequest(
                inserted: [h.item("b")], updated: [h.changed(a, ["value": .integer(1)])])
            : DataStoreSaveChangesRequest(inserted: [h.item("b")], deleted: [a])
        try h.expect.error(
            "unsupportedChange(\(kind)) naming the store",
            matching: {
                $0
                    == .unsupportedChange(
                        store: h.store.identifier, kind: kind, entity: ConformanceItem.entityName)
            },
            in: {
                _ = try h.store.save(request)
            })
        try h.expect.equal(try h.state(), before, "data and history after the rejected save")
    }

    static func insertOnlyRejectsUpdatesAtomically<S>(_ h: Harness<S>) throws {
        try rejectsAtomically(h, kind: .update)
    }

    static func insertOnlyRejectsDeletesAtomically<S>(_ h: Harness<S>) throws {
        try rejectsAtomically(h, kind: .delete)
    }
}
