import DataStoreCore
import Foundation
import InMemoryStorage

/// Scenarios 8 and 9: memory per retained change in the in-memory store, and the model layer's overhead.
enum MemoryScenario {
    /// The process's resident size in bytes, from /proc.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    static func run(_ report: Report, _ sizes: Sizes) throws {
        for perTransaction in [10, 1] {
            let store = try InMemoryDataStore(.init(name: "bench", schema: Note.schema))
            let transactions = sizes.memoryChanges / perTransaction
            // Build the snapshots first, so only what the store retains is counted.
            let batches = (0..<transactions).map { first in
                (0..<perTransaction).map { note(first * perTransaction + $0, store: "bench") }
            }
            let before = residentBytes()
            for batch in batches { _ = try store.save(DataStoreSaveChangesRequest(inserted: batch)) }
            let after = residentBytes()
            try verify(store.historyCount == transactions, "inmemory_bytes", "history count")
            // Models are retained too; count history only by also measuring a store that keeps none.
            let perChange = Double(after - before) / Double(sizes.memoryChanges)
            let name = perTransaction == 10 ? "inmemory_bytes_per_change" : "inmemory_bytes_per_change_single"
            report.metric(
                name, perChange, "bytes", target: perTransaction == 10 ? "<= 200" : "", met: perTransaction == 10 ? perChange <= 200 : nil,
                detail: "\(sizes.memoryChanges) changes in transactions of \(perTransaction); resident size grew "
                    + "\(after - before) bytes (models and history together)")
        }

        // 9. ModelContext insert + save of 10,000 models against the same snapshots through the store.
        let count = sizes.modelLayerModels
        var models: [Note] = []
        var snapshots: [DataStoreSnapshot] = []
        var container: ModelContainer?
        var direct: InMemoryDataStore?
        let (context, store) = try Measure.pair(
            repetitions: sizes.repetitions,
            prepare: {
                models = (0..<count).map { index in
                    var model = Note()
                    model.title = "note \(index)"
                    model.body = "hello"
                    model.rank = index % 100
                    return model
                }
                snapshots = (0..<count).map { note($0, store: "bench") }
                container = try ModelContainer(
                    for: [Note.self], configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "bench"))])
                direct = try InMemoryDataStore(.init(name: "bench", schema: Note.schema))
            },
            candidate: {
                let context = ModelContext(container!)
                for model in models { context.insert(model) }
                try context.save()
            },
            baseline: { _ = try direct!.save(DataStoreSaveChangesRequest(inserted: snapshots)) })
        let overhead = context.median / store.median
        report.metric(
            "model_layer_overhead", overhead, "x", target: "<= 2", met: overhead <= 2,
            detail: "ModelContext insert+save of \(count): median \(Report.time(context.median)); "
                + "store save of the same snapshots: median \(Report.time(store.median))")
    }
}
