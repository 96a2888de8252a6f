import DataStoreCore

/// Inserting, updating and deleting, then fetching.
enum RoundTripChecks {
    static func insertThenFetch<S>(_ h: Harness<S>) throws {
        let inserted = [h.item("a", value: 1, note: "x"), h.item("b", value: 2), h.item("c", tag: "t")]
        try h.save(inserted: inserted)
        try h.expect.equal(Set(try h.items()), Set(inserted), "the fetched snapshots")
    }

    static func updateThenFetch<S>(_ h: Harness<S>) throws {
        let original = h.item("a", value: 1)
        try h.save(inserted: [original])
        let updated = h.changed(original, ["value": .integer(5), "note": .string("new")])
        try h.save(updated: [updated])
        try h.expect.equal(try h.items(), [updated], "the fetched snapshots after the update")
    }

    static func deleteThenFetch<S>(_ h: Harness<S>) throws {
        let a = h.item("a")
        let b = h.item("b")
        try h.save(inserted: [a, b])
        try h.save(deleted: [a])
        try h.expect.equal(try h.items(), [b], "the fetched snapshots after deleting 'a'")
    }

    static func emptySaveRecordsNothing<S>(_ h: Harness<S>) throws {
        try h.save(inserted: [h.item("a")])
        let before = try h.history().count
        let token = try h.save()
        try h.expect.that(
            token == nil, "an empty save to return no token", observed: "token \(String(describing: token))")
        try h.expect.equal(try h.history().count, before, "the transaction count after an empty save")
    }

    static func unchangedUpdateRecordsNothing<S>(_ h: Harness<S>) throws {
        let a = h.item("a", value: 3)
        try h.save(inserted: [a])
        let token = try h.save(updated: [a])
        try h.expect.that(
            token == nil, "an update that changes no value to create no transaction",
            observed: "token \(String(describing: token))")
        try h.expect.equal(try h.history().count, 1, "the transaction count")
    }
}
