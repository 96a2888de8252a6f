import CAllocationCounter
import DataStoreCore
import Foundation
import JSONFileStorage
import TimeSeriesStorage

/// Allocation gates: heap allocations per operation, which do not swing with the machine's load as timings do.
/// Each figure is the median of seven runs of the operation, counted by `CAllocationCounter`. With
/// `DATASTORE_ALLOCATION_BUDGET` naming a file of `metric count` lines (`Benchmarks/allocation-budget.txt`),
/// an operation that allocates more than 10% over its budget fails the run (`.ci/run` sets it).
enum AllocationScenario {
    static let repetitions = 7

    static func run(_ report: Report, _ sizes: Sizes) throws {
        guard allocation_counter_installed() != 0 else {
            out("allocations: skipped (the counter needs glibc)")
            return
        }
        let scratch = try Scratch("allocations")
        let store = try JSONFileDataStore(
            JSONFileStoreConfiguration(name: "bench", schema: Note.schema, directory: scratch.path("json")))
        _ = try store.save(
            DataStoreSaveChangesRequest(inserted: (0..<10_000).map { note($0, store: "bench") }))

        var round = 0
        let save = try median {
            round += 1
            let updates = (0..<10).map { note($0 * 997 % 10_000, store: "bench", body: "round \(round)") }
            _ = try store.save(DataStoreSaveChangesRequest(updated: updates))
        }
        var found = 0
        let fetch = try median {
            let title = "note \(round * 31 % 10_000)"
            round += 1
            found += try store.fetch(
                DataStoreFetchRequest(
                    descriptor: FetchDescriptor<Note>(predicate: #Predicate { $0.title == title }))
            ).snapshots.count
        }
        try verify(found == repetitions, "allocations", "an indexed fetch found \(found) of \(repetitions)")
        for extra in 0..<10 {
            _ = try store.save(
                DataStoreSaveChangesRequest(updated: [note(extra, store: "bench", body: "extra")]))
        }
        let tenBack = try store.fetchHistory(HistoryDescriptor()).dropLast(10).last?.token
        var tail = 0
        let history = try median {
            tail += try store.fetchHistory(
                HistoryDescriptor(predicate: tenBack.map { HistoryPredicates.after($0) })
            ).count
        }
        try verify(tail == 10 * repetitions, "allocations", "the history tail read \(tail / repetitions)")

        let series = try TimeSeriesDataStore(
            .init(name: "bench", schema: Note.schema, directory: scratch.path("series")))
        let start = Date().addingTimeInterval(-Double(repetitions * 2_000) / 10 - 60)
        var batch = 0
        let ingest = try median {
            let first = batch * 1_000
            batch += 1
            _ = try series.save(
                DataStoreSaveChangesRequest(
                    inserted: TimeSeriesScenario.samples(first..<first + 1_000, from: start)))
        }

        let budgets = try loadBudgets()
        var exceeded: [String] = []
        for (name, count, what) in [
            (
                "alloc_json_save_10_changes", save,
                "a durable JSON file store save of 10 updates (10,000 models)"
            ),
            ("alloc_json_indexed_fetch", fetch, "a JSON file store fetch by a unique (indexed) title"),
            ("alloc_json_history_tail", history, "fetchHistory of the 10 transactions after a token"),
            (
                "alloc_ts_ingest_1000", ingest,
                "a time-series save of 1,000 samples (building them not counted)"
            ),
        ] {
            let budget = budgets[name]
            let limit = budget.map { Double($0) * 1.1 }
            let met = limit.map { Double(count) <= $0 }
            report.metric(
                name, Double(count), "allocations", target: budget.map { "<= \($0) + 10%" } ?? "",
                met: met, detail: "\(what): median of \(repetitions)")
            if met == false { exceeded.append("\(name) \(count) > \(budget ?? 0) + 10%") }
        }
        if !exceeded.isEmpty { throw OverBudget(exceeded: exceeded) }
    }

    /// The median number of allocations `body` makes, over ``repetitions`` runs.
    static func median(_ body: () throws -> Void) throws -> UInt64 {
        var counts: [UInt64] = []
        for _ in 0..<repetitions {
            let before = allocation_count()
            try body()
            counts.append(allocation_count() - before)
        }
        return counts.sorted()[repetitions / 2]
    }

    /// The budgets in the file `DATASTORE_ALLOCATION_BUDGET` names, if it is set.
    static func loadBudgets() throws -> [String: UInt64] {
        guard let path = ProcessInfo.processInfo.environment["DATASTORE_ALLOCATION_BUDGET"] else {
            return [:]
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var budgets: [String: UInt64] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let count = UInt64(parts[1]) { budgets[String(parts[0])] = count }
        }
        return budgets
    }
}

/// Operations that allocated more than their budget allows.
struct OverBudget: Error, CustomStringConvertible {
    var exceeded: [String]
    var description: String {
        "allocations over budget (Benchmarks/allocation-budget.txt): " + exceeded.joined(separator: ", ")
    }
}
