import DataStoreCore
import Foundation

/// Fetching with predicates, sorting, offset and limit, against a brute-force oracle.
enum FetchChecks {
    /// Twenty items with repeating values and notes, saved in four transactions.
    static func seed<S>(_ h: Harness<S>) throws -> [ConformanceItem] {
        var snapshots: [DataStoreSnapshot] = []
        for batch in 0..<4 {
            let items = (0..<5).map { index -> DataStoreSnapshot in
                let n = batch * 5 + index
                return h.item(
                    "item\(n)", value: (n * 7) % 10, note: n.isMultiple(of: 2) ? "even" : "odd",
                    tag: "t\(n % 3)")
            }
            try h.save(inserted: items)
            snapshots += items
        }
        return try snapshots.map { try ConformanceItem(snapshot: $0) }
    }

    static func names(_ snapshots: [DataStoreSnapshot]) -> [String] {
        snapshots.map { $0[attribute: "name"] }.map { value in
            if case .string(let name) = value { return name }
            return "?"
        }
    }

    static func fetchPredicateMatchesOracle<S>(_ h: Harness<S>) throws {
        let all = try seed(h)
        let predicate = #Predicate<ConformanceItem> { $0.value >= 3 && $0.note == "even" }
        let fetched = Set(names(try h.items(FetchDescriptor(predicate: predicate))))
        let oracle = Set(try all.filter { try predicate.evaluate($0) }.map(\.name))
        try h.expect.equal(fetched, oracle, "the names matching `value >= 3 && note == \"even\"`")
    }

    static func fetchSortMatchesOracle<S>(_ h: Harness<S>) throws {
        let all = try seed(h)
        let sort = [
            SortDescriptor(\ConformanceItem.value, order: .reverse), SortDescriptor(\ConformanceItem.name),
        ]
        let fetched = names(try h.items(FetchDescriptor(sortBy: sort)))
        try h.expect.equal(
            fetched, all.sorted(using: sort).map(\.name), "the names sorted by value descending, then name")
    }

    static func fetchOffsetAndLimitMatchOracle<S>(_ h: Harness<S>) throws {
        let all = try seed(h)
        let sort = [SortDescriptor(\ConformanceItem.name)]
        let fetched = names(try h.items(FetchDescriptor(sortBy: sort, fetchOffset: 3, fetchLimit: 5)))
        try h.expect.equal(fetched, Array(all.sorted(using: sort).map(\.name)[3..<8]), "names 3 to 7 by name")
        let tail = names(try h.items(FetchDescriptor(sortBy: sort, fetchOffset: 18, fetchLimit: 5)))
        try h.expect.equal(tail.count, 2, "the number of items past offset 18 of 20")
    }

    static func fetchByIdentifier<S>(_ h: Harness<S>) throws {
        _ = try seed(h)
        let id = h.identifier("item7")
        let fetched = try h.items(FetchDescriptor(predicate: #Predicate { $0.persistentModelID == id }))
        try h.expect.equal(
            fetched.map(\.persistentIdentifier), [id], "the identifiers fetched by `persistentModelID ==`")
    }

    static func fetchPredicateErrorIsTyped<S>(_ h: Harness<S>) throws {
        _ = try seed(h)
        try h.expect.error(
            "DataStoreError.predicateEvaluationFailed naming the store",
            matching: { $0.code == .predicateEvaluationFailed && $0.store == h.store.identifier },
            in: {
                _ = try h.items(FetchDescriptor(predicate: #Predicate { [1][$0.value + 5] == 1 }))
            })
    }
}
