import DataStoreCore
import Foundation
import JSONFileStorage

/// Scenario 7: reopening a JSON store (checksums, decoding, replay) against Foundation's JSONDecoder decoding
/// the same records and nothing else.
enum OpenScenario {
    /// The journal's record shape, decoded by plain JSONDecoder for the baseline.
    struct Record: Decodable {
        struct Body: Decodable {
            var sequence: Int64?
            var changes: [PlannedChange]?
        }
        var type: String
        var body: Body
    }

    static func run(_ report: Report, _ sizes: Sizes) throws {
        let scratch = try Scratch("open")
        let directory = scratch.path("store")
        var changes = 0
        // Replay is what is measured: no automatic checkpoint moves the journal into segments (the `retained`
        // scenario measures opening a store that checkpoints).
        var configuration = JSONFileStoreConfiguration(
            name: "bench", schema: Note.schema, directory: directory, durability: .relaxed)
        configuration.checkpointJournalBytes = nil
        do {
            let store = try JSONFileDataStore(configuration)
            for first in stride(from: 0, to: sizes.openModels, by: 1_000) {
                let batch = (first..<min(first + 1_000, sizes.openModels)).map { note($0, store: "bench") }
                _ = try store.save(DataStoreSaveChangesRequest(inserted: batch))
                changes += batch.count
            }
            var round = 0
            while changes < sizes.openChanges {
                round += 1
                let batch = (0..<1_000).map {
                    note(($0 * 7 + round) % sizes.openModels, store: "bench", body: "r\(round)")
                }
                _ = try store.save(DataStoreSaveChangesRequest(updated: batch))
                changes += batch.count
            }
        }
        let journal = directory.appendingPathComponent("journal.jsonl")
        out(
            "open: \(sizes.openModels) models, \(changes) history changes, journal \((try? FileManager.default.attributesOfItem(atPath: journal.path)[.size] as? Int) ?? 0) bytes"
        )

        func decodeWithJSONDecoder() throws -> Int {
            let data = try Data(contentsOf: journal)
            let decoder = JSONDecoder()
            var decoded = 0
            for line in data.split(separator: UInt8(ascii: "\n")) {
                // Strip the framing `{"crc":"…","record":` and the closing `}` without checking anything.
                let record = try decoder.decode(Record.self, from: line.dropFirst(27).dropLast())
                decoded += record.body.changes?.count ?? 0
            }
            return decoded
        }
        var opened: JSONFileDataStore?
        try verify(
            try decodeWithJSONDecoder() == changes, "json_open",
            "the baseline decoded a different number of changes")
        configuration.durability = .full
        opened = try JSONFileDataStore(configuration)
        let replayed = try opened?.fetchHistory(HistoryDescriptor()).reduce(0) { $0 + $1.changes.count }
        try verify(
            replayed == changes, "json_open", "the store replayed \(replayed ?? -1) changes, not \(changes)")
        try verify(try opened?.modelCount() == sizes.openModels, "json_open", "model count after reopening")
        opened = nil
        let (open, decode) = try Measure.pair(
            repetitions: report.quick ? 3 : 5,
            candidate: {
                opened = try JSONFileDataStore(configuration)
                opened = nil
            },
            baseline: { _ = try decodeWithJSONDecoder() })
        report.metric("json_open_changes_per_s", Double(changes) / open.median, "changes/s")
        report.ratio(
            "json_open_vs_jsondecoder", candidate: open, baseline: decode, atLeast: 1.0,
            candidateLabel: "open (verify + replay)",
            baselineLabel: "JSONDecoder over the same records")
    }
}
