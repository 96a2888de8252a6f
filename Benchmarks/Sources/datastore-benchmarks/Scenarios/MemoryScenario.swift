import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage

#if canImport(Glibc)
    import CMalloc
#endif

/// Scenarios 8 and 9: memory per retained change in the in-memory store, and the model layer's overhead.
enum MemoryScenario {
    /// Heap bytes in use (glibc's allocation counters): unlike the resident size, this does not count memory
    /// that was freed but kept by the allocator, such as a save's temporary dictionaries.
    static func allocatedBytes() -> Int {
        #if canImport(Glibc)
            let info = mallinfo2()
            return Int(info.uordblks + info.hblkhd)
        #else
            return 0
        #endif
    }

    static func run(_ report: Report, _ sizes: Sizes) throws {
        // Retained history only: the changes update a fixed set of models, so the rows do not grow and the
        // heap grows by what history keeps.
        for perTransaction in [10, 1] {
            let store = try InMemoryDataStore(.init(name: "bench", schema: Note.schema))
            _ = try store.save(
                DataStoreSaveChangesRequest(inserted: (0..<1_000).map { note($0, store: "bench") }))
            let transactions = sizes.memoryChanges / perTransaction
            // Build the requests first, so only what the store retains is counted.
            let batches = (0..<transactions).map { round in
                (0..<perTransaction).map {
                    note((round * perTransaction + $0) % 1_000, store: "bench", body: "v\(round % 2)")
                }
            }
            // The requests stay alive until after the second reading, so their release is not counted.
            let (before, after) = try withExtendedLifetime(batches) {
                let before = allocatedBytes()
                for batch in batches { _ = try store.save(DataStoreSaveChangesRequest(updated: batch)) }
                return (before, allocatedBytes())
            }
            let changes = try store.fetchHistory(HistoryDescriptor()).dropFirst().reduce(0) {
                $0 + $1.changes.count
            }
            try verify(changes == sizes.memoryChanges, "inmemory_bytes", "\(changes) changes retained")
            let perChange = Double(after - before) / Double(sizes.memoryChanges)
            let name = perTransaction == 10 ? "inmemory_bytes_per_change" : "inmemory_bytes_per_change_single"
            report.metric(
                name, perChange, "bytes", target: perTransaction == 10 ? "<= 150" : "",
                met: perTransaction == 10 ? perChange <= 150 : nil,
                detail: "\(sizes.memoryChanges) one-attribute updates in transactions of \(perTransaction); "
                    + "heap in use grew \(after - before) bytes")
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
                // The snapshots the context sends: the models' own identifiers (UUIDs) and values.
                snapshots = models.map { model in
                    DataStoreSnapshot(
                        persistentIdentifier: PersistentIdentifier(
                            storeIdentifier: "bench", entityName: "Note",
                            primaryKey: model.persistentModelID.primaryKey),
                        values: model.snapshotValues)
                }
                container = try ModelContainer(
                    for: [Note.self],
                    configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "bench"))])
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
            "model_layer_overhead", overhead, "x", target: "<= 1.3", met: overhead <= 1.3,
            detail: "ModelContext insert+save of \(count): median \(Report.time(context.median)); "
                + "store save of the same snapshots: median \(Report.time(store.median))")
    }
}
