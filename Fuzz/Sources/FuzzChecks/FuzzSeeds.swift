import DataStoreCore
import Foundation
import JSONFileStorage
import TimeSeriesStorage

/// Seed inputs written by the stores as they are today, for the targets whose input is a whole store: the
/// `Fuzz/Corpus` files of `jsonstore` and `timeseries` were made by ``make()``, and `FuzzReplayTests` checks that
/// what it makes now still opens, so that a format change cannot leave the fuzzer starting from inputs every
/// store refuses.
public enum FuzzSeeds {
    /// Seed inputs by target and file name. Each stays under the 8 KiB `Scripts/fuzz` lets an input grow to.
    public static func make() throws -> [FuzzTarget: [String: [UInt8]]] {
        [
            .jsonstore: [
                "journal-only": try jsonStore(checkpoint: false),
                "checkpointed": try jsonStore(checkpoint: true),
            ],
            .timeseries: [
                "three-segments": try timeSeries(retention: false),
                "retained": try timeSeries(retention: true),
            ],
        ]
    }

    /// A JSON file store `trips` with inserts, updates and deletes; checkpointed (snapshot, history segment and a
    /// short journal) with retention trims, or a journal only.
    static func jsonStore(checkpoint: Bool) throws -> [UInt8] {
        try withTemporaryDirectory { directory in
            var configuration = JSONFileStoreConfiguration(
                name: "trips", schema: Schema([FuzzGadget.self]), directory: directory)
            if checkpoint {
                configuration.checkpointJournalBytes = 1_200
                configuration.historyRetention = .init(maximumTransactionCount: 6)
            }
            let store = try JSONFileDataStore(configuration)
            var gadgets: [FuzzGadget] = []
            for round in 0..<8 {
                var gadget = FuzzGadget()
                gadget.persistentModelID = PersistentIdentifier(
                    storeIdentifier: "trips", entityName: "Gadget", primaryKey: "g\(round)")
                gadget.count = round
                gadget.name = FuzzPredicates.names[round % FuzzPredicates.names.count]
                gadget.nickname = round.isMultiple(of: 3) ? nil : "n\(round)"
                var updated: [DataStoreSnapshot] = []
                var deleted: [DataStoreSnapshot] = []
                if var last = gadgets.last {
                    last.weight = Double(round) / 2
                    updated = [last.snapshot]
                    gadgets[gadgets.count - 1] = last
                }
                if round == 5 { deleted = [gadgets.removeFirst().snapshot] }
                gadgets.append(gadget)
                _ = try store.save(
                    DataStoreSaveChangesRequest(
                        editingState: EditingState(author: round.isMultiple(of: 2) ? "app" : "widget"),
                        inserted: [gadget.snapshot], updated: updated, deleted: deleted))
            }
            if checkpoint { try store.compact() }
        }
    }

    /// A time-series store `sensors` whose samples span three segments; with `retention`, the oldest removed.
    static func timeSeries(retention: Bool) throws -> [UInt8] {
        try withTemporaryDirectory { directory in
            let store = try TimeSeriesDataStore(
                TimeSeriesStoreConfiguration(
                    name: "sensors", schema: Schema([FuzzReading.self]), directory: directory,
                    segmentSpan: 60,
                    retention: retention ? .init(maximumSize: 900) : .keepEverything))
            let start = Date().addingTimeInterval(-3_600)
            for save in 0..<6 {
                let readings = (0..<2).map { index in
                    var reading = FuzzReading()
                    reading.persistentModelID = PersistentIdentifier(
                        storeIdentifier: "sensors", entityName: "Reading", primaryKey: "r\(save)-\(index)")
                    reading.sensor = "s\(index)"
                    reading.value = Double(save) + 0.5
                    reading.timestamp = start.addingTimeInterval(Double(save * 30 + index))
                    return reading.snapshot
                }
                _ = try store.save(DataStoreSaveChangesRequest(inserted: readings))
            }
        }
    }

    /// Runs `body` on a new temporary directory and returns the archive of what it left there: the lock file
    /// left out (it holds no data), and the free space (zeros) at the end of a journal cut off (a journal
    /// without it is as valid).
    static func withTemporaryDirectory(_ body: (URL) throws -> Void) throws -> [UInt8] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fuzz-seed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try body(directory)
        var files: [String: Data] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: directory.path) where name != "lock" {
            var isDirectory: ObjCBool = false
            let url = directory.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            else { continue }
            let data = try Data(contentsOf: url)
            files[name] = data.prefix((data.lastIndex { $0 != 0 } ?? -1) + 1)
        }
        return StoreArchive.archive(files)
    }
}
