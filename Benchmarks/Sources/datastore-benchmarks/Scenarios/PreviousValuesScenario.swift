import DataStoreCore
import Foundation
import InMemoryStorage
import JSONFileStorage

/// What previous values cost: 10-change saves with every attribute marked `.preservePreviousValue` against the
/// same saves without, and the bytes each retained change takes with them (issue: previous values and undo).
enum PreviousValuesScenario {
    /// The benchmark note's schema, with or without previous values for every attribute.
    static func schema(previousValues: Bool) -> Schema {
        let extra: Schema.Attribute.Option = previousValues ? .preservePreviousValue : []
        return Schema(entities: [
            Schema.Entity(
                name: "Note",
                attributes: [
                    .init(name: "title", options: [.unique, .preserveValueOnDeletion, extra]),
                    .init(name: "body", options: extra), .init(name: "rank", options: extra),
                    .init(name: "timestamp", options: extra),
                ])
        ])
    }

    /// `saves` saves of 10 two-attribute updates over 1,000 notes, built before timing.
    static func batches(_ saves: Int, store: String) -> [[DataStoreSnapshot]] {
        (0..<saves).map { round in
            (0..<10).map { offset in
                let index = (round * 10 + offset) % 1_000
                return DataStoreSnapshot(
                    persistentIdentifier: PersistentIdentifier(
                        storeIdentifier: store, entityName: "Note", primaryKey: "n\(index)"),
                    values: ["body": .string("v\(round)"), "rank": .integer(Int64(round))])
            }
        }
    }

    static func run(_ report: Report, _ sizes: Sizes) throws {
        let scratch = try Scratch("previous")
        let saves = sizes.saves * 10
        var stores: [Bool: JSONFileDataStore] = [:]
        var round = 0
        let (on, off) = try Measure.pair(
            repetitions: sizes.repetitions,
            input: {
                // Fresh stores for each repetition, each holding the same 1,000 notes.
                round += 1
                for marked in [true, false] {
                    // No automatic checkpoint: the journal with previous values is larger and would reach
                    // the threshold sooner, so one side would pay a checkpoint the other does not.
                    var configuration = JSONFileStoreConfiguration(
                        name: "bench", schema: schema(previousValues: marked),
                        directory: scratch.path("\(marked)-\(round)"), durability: .relaxed)
                    configuration.checkpointJournalBytes = nil
                    let store = try JSONFileDataStore(configuration)
                    _ = try store.save(
                        DataStoreSaveChangesRequest(inserted: (0..<1_000).map { note($0, store: "bench") }))
                    stores[marked] = store
                }
                return batches(saves, store: "bench")
            },
            candidate: { batches in
                for batch in batches {
                    _ = try stores[true]!.save(DataStoreSaveChangesRequest(updated: batch))
                }
            },
            baseline: { batches in
                for batch in batches {
                    _ = try stores[false]!.save(DataStoreSaveChangesRequest(updated: batch))
                }
            })
        let last = try stores[true]!.fetchHistory(HistoryDescriptor()).last?.changes.first
        try verify(
            last?.previousValues?.keys.sorted() == ["body", "rank"], "previous_values",
            "the marked store recorded the previous values")
        try verify(
            try stores[false]!.fetchHistory(HistoryDescriptor()).last?.changes.first?.previousValues == nil,
            "previous_values", "the unmarked store recorded none")
        let ratio = on.median / off.median
        report.metric(
            "save_with_previous_values_vs_without", ratio, "x", target: "<= 1.2", met: ratio <= 1.2,
            detail:
                "JSON file store (relaxed durability, no automatic checkpoint), \(saves) saves of 10 "
                + "two-attribute updates: median \(Report.time(on.median)) with every attribute marked "
                + ".preservePreviousValue, \(Report.time(off.median)) without")

        // Bytes per retained change in the in-memory store, with previous values on and off.
        var perChange: [Bool: Double] = [:]
        for marked in [true, false] {
            let store = try InMemoryDataStore(.init(name: "bench", schema: schema(previousValues: marked)))
            _ = try store.save(
                DataStoreSaveChangesRequest(inserted: (0..<1_000).map { note($0, store: "bench") }))
            let requests = batches(sizes.memoryChanges / 10, store: "bench")
            let (before, after) = try withExtendedLifetime(requests) {
                let before = MemoryScenario.allocatedBytes()
                for batch in requests { _ = try store.save(DataStoreSaveChangesRequest(updated: batch)) }
                return (before, MemoryScenario.allocatedBytes())
            }
            perChange[marked] = Double(after - before) / Double(sizes.memoryChanges)
        }
        report.metric(
            "inmemory_bytes_per_change_with_previous_values", perChange[true]!, "bytes",
            detail:
                "\(sizes.memoryChanges) two-attribute updates in transactions of 10, every attribute marked; "
                + "without previous values: \(Int(perChange[false]!)) bytes")

        // The JSON file store's journal bytes per change, with previous values on and off.
        var journal: [Bool: Double] = [:]
        for marked in [true, false] {
            let directory = scratch.path("journal-\(marked)")
            let store = try JSONFileDataStore(
                .init(
                    name: "bench", schema: schema(previousValues: marked), directory: directory,
                    durability: .relaxed))
            _ = try store.save(
                DataStoreSaveChangesRequest(inserted: (0..<1_000).map { note($0, store: "bench") }))
            let path = directory.appendingPathComponent("journal.jsonl").path
            let before = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            for batch in batches(1_000, store: "bench") {
                _ = try store.save(DataStoreSaveChangesRequest(updated: batch))
            }
            let after = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            journal[marked] = Double(after - before) / 10_000
        }
        report.metric(
            "json_journal_bytes_per_change_with_previous_values", journal[true]!, "bytes",
            detail: "10,000 two-attribute updates in transactions of 10; without previous values: "
                + "\(Int(journal[false]!)) bytes")
    }
}
