import DataStoreCore
import Foundation
import JSONFileStorage
import Synchronization

/// How long a primary-key fetch waits while the same instance checkpoints a large store (issue: checkpoints
/// and trims stalled readers for as long as they took, 1.29 s at 212k models). The baseline is the
/// checkpoint itself, measured in the same run: the ratio is the longest fetch during checkpoints over the
/// median checkpoint.
enum CheckpointStallScenario {
    static func run(_ report: Report, _ sizes: Sizes) throws {
        let scratch = try Scratch("checkpoint")
        var configuration = JSONFileStoreConfiguration(
            name: "bench", schema: Note.schema, directory: scratch.path("store"), durability: .relaxed)
        configuration.checkpointJournalBytes = nil
        let store = try JSONFileDataStore(configuration)
        for first in stride(from: 0, to: sizes.openModels, by: 1_000) {
            let batch = (first..<min(first + 1_000, sizes.openModels)).map { note($0, store: "bench") }
            _ = try store.save(DataStoreSaveChangesRequest(inserted: batch))
        }
        let identifier = PersistentIdentifier(storeIdentifier: "bench", entityName: "Note", primaryKey: "n7")
        let predicate = #Predicate<Note> { $0.persistentModelID == identifier }
        let request = DataStoreFetchRequest(descriptor: FetchDescriptor<Note>(predicate: predicate))
        try verify(try store.fetch(request).snapshots.count == 1, "checkpoint", "the key fetch found no note")

        // A reader fetches one note by key in a loop and keeps the longest fetch that began during a checkpoint.
        let checkpointing = Atomic<Bool>(false)
        let stop = Atomic<Bool>(false)
        let longest = Mutex<(during: Double, fetches: Int)>((0, 0))
        let reader = Thread {
            while !stop.load(ordering: .acquiring) {
                let during = checkpointing.load(ordering: .acquiring)
                let seconds = Measure.seconds { _ = try? store.fetch(request) }
                if during {
                    longest.withLock { $0 = (max($0.during, seconds), $0.fetches + 1) }
                }
            }
        }
        reader.start()
        defer { stop.store(true, ordering: .releasing) }
        var checkpoints: [Double] = []
        for _ in 0..<(report.quick ? 3 : 5) {
            // Each checkpoint rewrites every model: save one more so that it has something new to move.
            _ = try store.save(DataStoreSaveChangesRequest(updated: [note(1, store: "bench", body: "again")]))
            checkpointing.store(true, ordering: .releasing)
            checkpoints.append(try Measure.seconds { try store.compact() })
            checkpointing.store(false, ordering: .releasing)
        }
        let checkpoint = Timing(samples: checkpoints).median
        let (worst, fetches) = longest.withLock { $0 }
        try verify(fetches > 0, "checkpoint", "no fetch began during a checkpoint")
        let ratio = worst / checkpoint
        report.metric(
            "json_fetch_stall_vs_checkpoint", ratio, "x", target: "<= 0.1", met: ratio <= 0.1,
            detail:
                "longest primary-key fetch during \(checkpoints.count) checkpoints of \(sizes.openModels) "
                + "models: \(Report.time(worst)) (\(fetches) fetches began during them); median checkpoint "
                + "\(Report.time(checkpoint))")
    }
}
