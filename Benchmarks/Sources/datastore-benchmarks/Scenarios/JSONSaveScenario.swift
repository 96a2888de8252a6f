import DataStoreCore
import Foundation
import JSONFileStorage

/// Scenarios 2 and 3: the cost of a durable save against rewriting the whole file (the WWDC24 sample's
/// design) and against a raw write + fsync of the same size; and concurrent writers.
enum JSONSaveScenario {
    static func run(_ report: Report, _ sizes: Sizes) throws {
        let scratch = try Scratch("save")
        let directory = scratch.path("store")
        do {
            let bulk = try JSONFileDataStore(
                .init(name: "bench", schema: Note.schema, directory: directory, durability: .relaxed))
            for first in stride(from: 0, to: sizes.jsonModels, by: 1_000) {
                _ = try bulk.save(
                    DataStoreSaveChangesRequest(
                        inserted: (first..<min(first + 1_000, sizes.jsonModels)).map {
                            note($0, store: "bench")
                        }))
            }
        }
        let store = try JSONFileDataStore(.init(name: "bench", schema: Note.schema, directory: directory))
        out("json save: \(sizes.jsonModels) models")

        // 2. Ten changed models, durable, against encoding all snapshots into a new file with fsync and rename.
        var models = try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Note>())).snapshots
        var round = 0
        func tenChanged() -> [DataStoreSnapshot] {
            round += 1
            return (0..<10).map { note($0 * 97, store: "bench", body: "round \(round)") }
        }
        let rewriteFile = scratch.path("rewrite.json").path
        func rewriteEverything(_ changed: [DataStoreSnapshot]) throws {
            let byID = Dictionary(uniqueKeysWithValues: changed.map { ($0.persistentIdentifier, $0) })
            models = models.map { byID[$0.persistentIdentifier] ?? $0 }
            let data = try JSONEncoder().encode(models)
            let temporary = rewriteFile + ".tmp"
            _ = FileManager.default.createFile(atPath: temporary, contents: nil)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
            try handle.write(contentsOf: data)
            try handle.synchronize()
            try handle.close()
            _ = rename(temporary, rewriteFile)
        }
        // Same results: after the same change, the rewritten file and the store hold the same models.
        let probe = tenChanged()
        _ = try store.save(DataStoreSaveChangesRequest(updated: probe))
        try rewriteEverything(probe)
        let decoded = try JSONDecoder().decode(
            [DataStoreSnapshot].self, from: Data(contentsOf: URL(fileURLWithPath: rewriteFile)))
        let stored = try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Note>())).snapshots
        try verify(Set(decoded) == Set(stored), "json_save", "the rewritten file and the store differ")

        let (save, rewrite) = try Measure.pair(
            repetitions: sizes.repetitions,
            candidate: { _ = try store.save(DataStoreSaveChangesRequest(updated: tenChanged())) },
            baseline: { try rewriteEverything(tenChanged()) })
        report.ratio(
            "json_save_speedup_vs_rewrite", candidate: save, baseline: rewrite, atLeast: 100,
            candidateLabel: "save of 10 changes", baselineLabel: "rewrite of \(sizes.jsonModels) models")

        // 3. Single-writer durable saves against a raw write + fsync of the same record size.
        let before = store.statistics.journalBytesWritten
        _ = try store.save(
            DataStoreSaveChangesRequest(inserted: [note(sizes.jsonModels + 1, store: "bench")]))
        let recordSize = Int(store.statistics.journalBytesWritten - before)
        var next = sizes.jsonModels + 2
        let raw = try FileHandle(
            forWritingTo: {
                let url = scratch.path("raw.log")
                _ = FileManager.default.createFile(atPath: url.path, contents: nil)
                return url
            }())
        let record = Data(repeating: UInt8(ascii: "x"), count: recordSize)
        let batch = sizes.saves
        let (durable, rawWrites) = try Measure.pair(
            repetitions: sizes.repetitions,
            candidate: {
                for _ in 0..<batch {
                    _ = try store.save(DataStoreSaveChangesRequest(inserted: [note(next, store: "bench")]))
                    next += 1
                }
            },
            baseline: {
                for _ in 0..<batch {
                    try raw.write(contentsOf: record)
                    try raw.synchronize()
                }
            })
        report.ratio(
            "json_durable_save_vs_fsync", candidate: durable, baseline: rawWrites, atLeast: 0.9,
            candidateLabel: "\(batch) durable saves",
            baselineLabel: "\(batch) write+fsync of \(recordSize) bytes")
        let singleRate = Double(batch) / durable.median
        report.metric("json_durable_saves_per_s", singleRate, "saves/s")

        // Threads sharing one store instance, each making one-note durable saves.
        var taskRound = 0
        func concurrentSaves(threads: Int) throws -> Timing {
            try Measure.repeated(report.quick ? 3 : 5) {
                let base = 10_000_000 * threads + taskRound * 100_000
                // Threads of their own: `concurrentPerform` would run only as many at once as there are cores.
                let finished = DispatchGroup()
                for worker in 0..<threads {
                    finished.enter()
                    Thread.detachNewThread {
                        for index in 0..<(batch / threads) {
                            _ = try? store.save(
                                DataStoreSaveChangesRequest(inserted: [
                                    note(base + worker * 10_000 + index, store: "bench")
                                ]))
                        }
                        finished.leave()
                    }
                }
                finished.wait()
                taskRound += 1
            }
        }
        let tasks = try concurrentSaves(threads: 4)
        report.metric(
            "json_concurrent_tasks_vs_single", (Double(batch / 4 * 4) / tasks.median) / singleRate, "x",
            detail: "4 tasks, \(batch / 4) saves each; saves/s relative to one writer")

        // Eight threads: group commit writes the saves that arrive together with one fdatasync.
        let syncsBefore = store.statistics.journalSynchronizations
        let savesBefore = store.statistics.committedSaves
        let eight = try concurrentSaves(threads: 8)
        let syncs = store.statistics.journalSynchronizations - syncsBefore
        let saves = store.statistics.committedSaves - savesBefore
        let groupRatio = (Double(batch / 8 * 8) / eight.median) / singleRate
        report.metric(
            "json_group_commit_8_tasks_vs_single", groupRatio, "x", target: ">= 3", met: groupRatio >= 3,
            detail:
                "8 threads, \(batch / 8) durable saves each: median \(Report.time(eight.median)); saves/s "
                + "relative to one writer; \(saves) saves took \(syncs) fdatasyncs")

        // Four processes, each with its own instance, serialised by flock. Each child opens the store, says it
        // is ready (a file), and waits for the others before saving, so that one child's opening does not
        // count as another's saving time (opening is measured by `open` and `retained`). Each reports when its
        // saves started and ended, and the rate is taken over the span from the first start to the last end.
        let perProcess = report.quick ? 100 : 250
        var spans: [Double] = []
        for _ in 0..<(report.quick ? 3 : 5) {
            let children = try (0..<4).map { worker -> (Process, Pipe) in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
                process.arguments = ["--child-saves", directory.path, "\(perProcess)", "w\(worker)-\(next)"]
                let pipe = Pipe()
                process.standardOutput = pipe
                try process.run()
                return (process, pipe)
            }
            // All four open, then all four go.
            let ready = (0..<4).map { directory.appendingPathComponent("ready-w\($0)-\(next)").path }
            let deadline = Date().addingTimeInterval(300)
            while !ready.allSatisfy(FileManager.default.fileExists(atPath:)) && Date() < deadline {
                usleep(1_000)
            }
            _ = FileManager.default.createFile(
                atPath: directory.appendingPathComponent("go-\(next)").path, contents: nil)
            next += 1
            var starts: [Double] = []
            var ends: [Double] = []
            for (process, pipe) in children {
                let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                for line in output.split(separator: "\n") {
                    let parts = line.split(separator: " ")
                    guard parts.count == 2, let time = Double(parts[1]) else { continue }
                    if parts[0] == "START" {
                        starts.append(time)
                    } else if parts[0] == "END" {
                        ends.append(time)
                    }
                }
            }
            try verify(
                starts.count == 4 && ends.count == 4, "json_processes", "a child did not report its saves")
            spans.append((ends.max() ?? 0) - (starts.min() ?? 0))
        }
        let processes = Timing(samples: spans)
        let processRatio = (Double(perProcess * 4) / processes.median) / singleRate
        report.metric(
            "json_concurrent_processes_vs_single", processRatio, "x", target: ">= 0.5",
            met: processRatio >= 0.5,
            detail: "4 processes, \(perProcess) saves each, timed from the first save to the last; "
                + "saves/s relative to one writer")
    }

    /// The child mode for the four-process measurement.
    static func childSaves(directory: String, count: Int, label: String) throws {
        var configuration = JSONFileStoreConfiguration(
            name: "bench", schema: Note.schema, directory: URL(fileURLWithPath: directory))
        // Each child reads the 100,000 models under the exclusive lock while it opens, so the fourth one can
        // wait longer than the default 10 s: this measures throughput, not the timeout.
        configuration.busyTimeout = .seconds(120)
        let store = try JSONFileDataStore(configuration)
        let round = label.split(separator: "-").last.map(String.init) ?? ""
        _ = FileManager.default.createFile(atPath: directory + "/ready-\(label)", contents: nil)
        while !FileManager.default.fileExists(atPath: directory + "/go-\(round)") { usleep(500) }
        out("START \(Date().timeIntervalSince1970)")
        defer { out("END \(Date().timeIntervalSince1970)") }
        for index in 0..<count {
            var snapshot = note(index, store: "bench")
            snapshot.persistentIdentifier.primaryKey = "\(label)-\(index)"
            snapshot.values["title"] = .string("\(label)-\(index)")
            _ = try store.save(DataStoreSaveChangesRequest(inserted: [snapshot]))
        }
    }
}
