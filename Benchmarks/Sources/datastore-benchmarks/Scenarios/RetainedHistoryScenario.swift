import DataStoreCore
import Foundation
import JSONFileStorage

/// A JSON file store that has lived a while: 10,000 models and a million retained history changes in 10-change
/// transactions (a hundred thousand saves), with automatic checkpoints at their default threshold. Opening it
/// reads the snapshot and the journal since the last checkpoint; its history stays in the segment files.
enum RetainedHistoryScenario {
    static let models = 10_000
    static let changesPerSave = 10

    static func run(_ report: Report, _ sizes: Sizes) throws {
        let scratch = try Scratch("retained")
        let directory = scratch.path("store")
        let configuration = JSONFileStoreConfiguration(
            name: "bench", schema: Note.schema, directory: directory, durability: .relaxed)
        let changes = sizes.retainedChanges
        do {
            let store = try JSONFileDataStore(configuration)
            for first in stride(from: 0, to: models, by: 1_000) {
                _ = try store.save(
                    DataStoreSaveChangesRequest(
                        inserted: (first..<first + 1_000).map { note($0, store: "bench") }))
            }
            for round in 0..<changes / changesPerSave {
                let batch = (0..<changesPerSave).map {
                    note((round * changesPerSave + $0) % models, store: "bench", body: "r\(round)")
                }
                _ = try store.save(DataStoreSaveChangesRequest(updated: batch))
            }
            out(
                "retained: \(models) models, \(changes) updates retained; \(store.statistics.checkpoints) checkpoints"
            )
        }
        var opened: JSONFileDataStore?
        opened = try JSONFileDataStore(configuration)
        let retained = try opened?.fetchHistory(HistoryDescriptor()).reduce(0) { $0 + $1.changes.count } ?? 0
        try verify(retained == changes + models, "json_open_1m_history", "\(retained) changes retained")
        try verify(try opened?.modelCount() == models, "json_open_1m_history", "model count after reopening")
        opened = nil

        let open = try Measure.repeated(report.quick ? 3 : 5) {
            opened = try JSONFileDataStore(configuration)
            opened = nil
        }
        let seconds = open.median
        report.metric(
            "json_open_1m_history_s", seconds, "s", target: "<= 0.5", met: seconds <= 0.5,
            detail:
                "open of \(models) models with \(changes + models) retained changes: median \(Report.time(open.median)) "
                + "(min \(Report.time(open.min)), max \(Report.time(open.max)))")

        // Heap in use that opening adds, per retained change: the models, the sparse index and the journal's
        // tail, all divided by the changes the store keeps on disk.
        let before = MemoryScenario.allocatedBytes()
        let store = try JSONFileDataStore(configuration)
        let after = MemoryScenario.allocatedBytes()
        let bytesRead = store.statistics.bytesRead
        let perChange = Double(after - before) / Double(changes + models)
        withExtendedLifetime(store) {}
        report.metric(
            "json_rss_bytes_per_retained_change", perChange, "bytes", target: "<= 16", met: perChange <= 16,
            detail:
                "heap in use grew \(after - before) bytes on opening (models included); opening read \(bytesRead) bytes"
        )
    }
}
