import DataStoreCore
import Foundation
import InMemoryStorage

/// An equality fetch answered from an index (`title` is `.unique`, so indexed) against the same fetch over a
/// store whose schema has no index, so every model is examined.
enum IndexScenario {
    static func run(_ report: Report, _ sizes: Sizes) throws {
        let count = sizes.jsonModels
        let snapshots = (0..<count).map { note($0, store: "bench") }
        let indexed = try InMemoryDataStore(.init(name: "bench", schema: Note.schema))
        var plain = Note.schema
        plain.entities[0].attributes = plain.entities[0].attributes.map { Schema.Attribute(name: $0.name) }
        let scanned = try InMemoryDataStore(.init(name: "bench", schema: plain))
        _ = try indexed.save(DataStoreSaveChangesRequest(inserted: snapshots))
        _ = try scanned.save(DataStoreSaveChangesRequest(inserted: snapshots))

        let wanted = "note \(count / 2)"
        let request = DataStoreFetchRequest(
            descriptor: FetchDescriptor<Note>(predicate: #Predicate { $0.title == wanted }))
        let fromIndex = try indexed.fetch(request).snapshots
        let fromScan = try scanned.fetch(request).snapshots
        try verify(fromIndex == fromScan && fromIndex.count == 1, "indexed_fetch", "the same single match")
        let before = (indexed.modelsExamined, scanned.modelsExamined)
        // One lookup each: a full scan of 100,000 models takes about a second.
        let (candidate, baseline) = try Measure.pair(
            repetitions: sizes.repetitions,
            candidate: { _ = try indexed.fetch(request) },
            baseline: { _ = try scanned.fetch(request) })
        let speedup = baseline.median / candidate.median
        let examined = Double(indexed.modelsExamined - before.0) / Double(scanned.modelsExamined - before.1)
        report.metric(
            "indexed_fetch_vs_scan", speedup, "x", target: ">= 100", met: speedup >= 100,
            detail: "equality on an indexed attribute over \(count) models, one lookup: median "
                + "\(Report.time(candidate.median)) against \(Report.time(baseline.median)) for a full scan; "
                + "models examined: \(String(format: "%.5f", examined))× the scan's")
    }
}
