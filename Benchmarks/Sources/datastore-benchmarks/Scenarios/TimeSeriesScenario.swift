import DataStoreCore
import Foundation
import TimeSeriesStorage

/// Scenarios 5 and 6: time-series ingest against a raw write, and a 1% time range against a brute-force filter.
enum TimeSeriesScenario {
    static func samples(_ range: Range<Int>, from start: Date) -> [DataStoreSnapshot] {
        range.map { note($0, store: "bench", at: start.addingTimeInterval(Double($0) / 10)) }
    }

    static func run(_ report: Report, _ sizes: Sizes) throws {
        let scratch = try Scratch("ts")

        // 5. Batches of 1,000 samples per save, durable per save, against writing the same bytes with fsync.
        let ingest = try TimeSeriesDataStore(
            .init(name: "bench", schema: Note.schema, directory: scratch.path("ingest")))
        let batches = report.quick ? 10 : 20
        // Ten samples per second of sample time, ending before now: every sample is in the past.
        let start = Date().addingTimeInterval(-Double((1 + sizes.repetitions * batches) * 1_000) / 10 - 60)
        var next = 0
        let before = ingest.statistics.bytesWritten
        _ = try ingest.save(DataStoreSaveChangesRequest(inserted: samples(0..<1_000, from: start)))
        let batchBytes = Int(ingest.statistics.bytesWritten - before)
        next = 1_000
        let raw = scratch.path("raw.log")
        _ = FileManager.default.createFile(atPath: raw.path, contents: nil)
        let rawHandle = try FileHandle(forWritingTo: raw)
        let payload = Data(repeating: UInt8(ascii: "x"), count: batchBytes)
        var prepared: [[DataStoreSnapshot]] = []
        let (store, write) = try Measure.pair(
            repetitions: sizes.repetitions,
            prepare: {
                prepared = (0..<batches).map { index in
                    samples((next + index * 1_000)..<(next + (index + 1) * 1_000), from: start)
                }
            },
            candidate: {
                for batch in prepared { _ = try ingest.save(DataStoreSaveChangesRequest(inserted: batch)) }
                next += batches * 1_000
            },
            baseline: {
                for _ in 0..<batches {
                    try rawHandle.write(contentsOf: payload)
                    try rawHandle.synchronize()
                }
            })
        report.ratio(
            "ts_ingest_vs_raw_write", candidate: store, baseline: write, atLeast: 0.25,
            candidateLabel: "\(batches) durable saves of 1,000 samples",
            baselineLabel: "\(batches) write+fsync of \(batchBytes) bytes")
        let rate = Double(batches * 1_000) / store.median
        report.metric("ts_ingest_samples_per_s", rate, "samples/s", target: ">= 500000", met: rate >= 500_000)

        // 5b. Work per save must not grow as a segment fills: 500 one-sample saves into a segment already
        // holding 3,500 commits, against the same saves into an empty one.
        let lateStart = Date().addingTimeInterval(-3_000)
        let late = try TimeSeriesDataStore(
            .init(
                name: "bench", schema: Note.schema, directory: scratch.path("late"), segmentSpan: 86_400,
                isDurable: false))
        var lateNext = 0
        func oneSampleSaves(_ store: TimeSeriesDataStore, _ count: Int, from first: Int) throws {
            for index in first..<(first + count) {
                _ = try store.save(
                    DataStoreSaveChangesRequest(inserted: [
                        note(index, store: "bench", at: lateStart.addingTimeInterval(Double(index) / 100))
                    ]))
            }
        }
        try oneSampleSaves(late, 3_500, from: 0)
        lateNext = 3_500
        var early: TimeSeriesDataStore?
        var round = 0
        let (filled, empty) = try Measure.pair(
            repetitions: sizes.repetitions,
            prepare: {
                round += 1
                early = try TimeSeriesDataStore(
                    .init(
                        name: "bench", schema: Note.schema, directory: scratch.path("early-\(round)"),
                        segmentSpan: 86_400, isDurable: false))
            },
            candidate: {
                try oneSampleSaves(late, 500, from: lateNext)
                lateNext += 500
            },
            baseline: { if let early { try oneSampleSaves(early, 500, from: 0) } })
        report.ratio(
            "ts_late_saves_vs_early", candidate: filled, baseline: empty, atLeast: 0.8,
            candidateLabel: "500 saves into a segment of 3,500+ commits",
            baselineLabel: "500 saves into an empty one")

        // 6. A 1% time range over many samples, against fetching everything and filtering.
        let total = sizes.tsSamples
        let range = try TimeSeriesDataStore(
            .init(
                name: "bench", schema: Note.schema, directory: scratch.path("range"), segmentSpan: 600,
                isDurable: false))
        let rangeStart = Date().addingTimeInterval(-Double(total) / 10 - 60)
        for first in stride(from: 0, to: total, by: 10_000) {
            _ = try range.save(
                DataStoreSaveChangesRequest(
                    inserted: samples(first..<min(first + 10_000, total), from: rangeStart)))
        }
        let from = rangeStart.addingTimeInterval(Double(total) / 10 * 0.40)
        let to = from.addingTimeInterval(Double(total) / 10 * 0.01)
        let bounded = FetchDescriptor<Note>(
            predicate: #Predicate { $0.timestamp >= from && $0.timestamp < to })
        func bruteForce() throws -> [DataStoreSnapshot] {
            try range.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Note>())).snapshots.filter {
                guard case .date(let time) = $0[attribute: "timestamp"] else { return false }
                return time >= from && time < to
            }
        }
        let sought = try range.fetch(DataStoreFetchRequest(descriptor: bounded)).snapshots
        try verify(Set(sought) == Set(try bruteForce()), "ts_range", "the range query and the filter differ")
        try verify(
            sought.count == total / 100, "ts_range",
            "\(sought.count) samples in a 1% range, not \(total / 100)")
        let (seek, scan) = try Measure.pair(
            repetitions: report.quick ? 3 : 5,
            candidate: { _ = try range.fetch(DataStoreFetchRequest(descriptor: bounded)) },
            baseline: { _ = try bruteForce() })
        report.ratio(
            "ts_range_speedup", candidate: seek, baseline: scan, atLeast: 50, candidateLabel: "1% range",
            baselineLabel: "all \(total) samples, filtered")
    }
}
