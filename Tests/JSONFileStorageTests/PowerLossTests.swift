import DataStoreCore
import DataStoreKit
import Dispatch
import Foundation
import JSONFileStorage
import StoreTestSupport
import Testing

/// Power loss, not a process kill: a workload's file operations are recorded, and at every point the disk
/// states a power loss could leave there (`SimulatedDisk` states the model) are built and opened. Every save
/// acknowledged before the point must be there whole, no save may be there in part, and the store must open
/// (a torn or unsynchronized tail is cut back, never reported as damage nor silently dropping an acknowledged
/// save). `DATASTORE_POWER_LOSS=full` checks about ten times as many states (`.ci/run` runs it).
@Suite struct PowerLossTests {
    struct Outcome {
        var crashPoints = 0
        var statesChecked = 0
        var acknowledgedSaves = 0
        var violations: [String] = []
    }

    static var isFull: Bool { ProcessInfo.processInfo.environment["DATASTORE_POWER_LOSS"] == "full" }

    /// Runs `saves` saves of three memos each (from `threads` threads at once: group commit) on a store made by
    /// `configure`, then checks the crash states after every recorded operation.
    static func run(
        saves: Int, threads: Int = 1, randomSubsets: Int,
        configure: (inout JSONFileStoreConfiguration) -> Void
    ) throws -> Outcome {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = directory.url.appendingPathComponent("store")
        var configuration = JSONFileStoreConfiguration(
            name: "memos", schema: Schema([Memo.self]), directory: root)
        configure(&configuration)
        let recording = IORecording()
        var initial: [String: Data] = [:]
        do {
            let store = try JSONFileDataStore(configuration)
            for name in try FileManager.default.contentsOfDirectory(atPath: root.path) {
                initial[name] = try Data(contentsOf: root.appendingPathComponent(name))
            }
            FaultInjection.record(pathContaining: root.path, into: recording)
            defer { FaultInjection.stopRecording(recording) }
            let perThread = saves / threads
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                for round in 0..<perThread {
                    let save = thread * perThread + round
                    let memos = ["a", "b", "c"].map { letter in
                        DataStoreSnapshot(
                            persistentIdentifier: PersistentIdentifier(
                                storeIdentifier: "memos", entityName: "Memo", primaryKey: "s\(save)-\(letter)"
                            ),
                            values: ["title": .string("s\(save)-\(letter)"), "body": .string("v\(save)")])
                    }
                    if (try? store.save(DataStoreSaveChangesRequest(inserted: memos))) != nil {
                        recording.append(.note("ack \(save)"))
                    }
                }
            }
        }
        let events = recording.events
        var outcome = Outcome()
        var disk = SimulatedDisk(directory: root.path, contents: initial)
        var acknowledged: Set<Int> = []
        var generator = SystemRandomNumberGenerator()
        let scratch = directory.url.appendingPathComponent("crash")
        for event in events {
            if case .note(let note) = event, note.hasPrefix("ack "), let save = Int(note.dropFirst(4)) {
                acknowledged.insert(save)
                continue
            }
            disk.apply(event)
            outcome.crashPoints += 1
            for state in disk.crashStates(randomSubsets: randomSubsets, using: &generator) {
                outcome.statesChecked += 1
                if let violation = check(
                    state, at: scratch, configuration: configuration, acknowledged: acknowledged, saves: saves
                ) {
                    outcome.violations.append(
                        "after operation \(outcome.crashPoints) (\(event)): \(violation)")
                }
            }
        }
        outcome.acknowledgedSaves = acknowledged.count
        // The figures Docs/Durability.md records (printed, not asserted: they depend on the run).
        print(
            "power loss: \(saves) saves on \(threads) thread(s): \(outcome.crashPoints) crash points, "
                + "\(outcome.statesChecked) states, \(outcome.acknowledgedSaves) acknowledged saves, "
                + "\(outcome.violations.count) violations")
        return outcome
    }

    /// Opens `state` read-only, then read-write, and checks what each reads; `nil` when all holds.
    static func check(
        _ state: [String: Data], at scratch: URL, configuration: JSONFileStoreConfiguration,
        acknowledged: Set<Int>, saves: Int
    ) -> String? {
        try? FileManager.default.removeItem(at: scratch)
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            for (name, data) in state { try data.write(to: scratch.appendingPathComponent(name)) }
        } catch {
            return "could not write the state: \(error)"
        }
        var configuration = configuration
        configuration.directory = scratch
        for readOnly in [true, false] {
            configuration.isReadOnly = readOnly
            let titles: Set<String>
            do {
                let store = try JSONFileDataStore(configuration)
                titles = Set(
                    try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Memo>())).snapshots.map
                    {
                        $0.persistentIdentifier.primaryKey
                    })
            } catch {
                return "opening \(readOnly ? "read-only" : "read-write") failed: \(error)"
            }
            for save in 0..<saves {
                let present = ["a", "b", "c"].filter { titles.contains("s\(save)-\($0)") }.count
                if acknowledged.contains(save) && present != 3 {
                    return
                        "acknowledged save \(save) has \(present) of its 3 memos (\(readOnly ? "read-only" : "read-write"))"
                }
                if present != 0 && present != 3 {
                    return "save \(save) is there in part: \(present) of 3 memos"
                }
            }
        }
        return nil
    }

    @Test func durableSavesSurviveEveryPowerLossState() throws {
        let outcome = try Self.run(saves: Self.isFull ? 40 : 12, randomSubsets: Self.isFull ? 32 : 2) { _ in }
        #expect(outcome.violations.isEmpty, "\(outcome.violations.prefix(3))")
        #expect(outcome.acknowledgedSaves == (Self.isFull ? 40 : 12))
        #expect(outcome.statesChecked >= (Self.isFull ? 1_000 : 50), "only \(outcome.statesChecked) states")
    }

    @Test func checkpointsAndRetentionTrimsSurviveEveryPowerLossState() throws {
        // Each checkpoint writes a segment, a snapshot and a journal: many operations per save.
        let outcome = try Self.run(saves: Self.isFull ? 30 : 10, randomSubsets: Self.isFull ? 3 : 0) {
            $0.checkpointJournalBytes = 1_500
            $0.historyRetention = .init(maximumTransactionCount: 4)
        }
        #expect(outcome.violations.isEmpty, "\(outcome.violations.prefix(3))")
        #expect(outcome.statesChecked >= (Self.isFull ? 1_000 : 50), "only \(outcome.statesChecked) states")
    }

    @Test func groupCommitsSurviveEveryPowerLossState() throws {
        let outcome = try Self.run(
            saves: Self.isFull ? 48 : 16, threads: 4, randomSubsets: Self.isFull ? 32 : 2
        ) {
            _ in
        }
        #expect(outcome.violations.isEmpty, "\(outcome.violations.prefix(3))")
        #expect(outcome.acknowledgedSaves == (Self.isFull ? 48 : 16))
        #expect(outcome.statesChecked >= (Self.isFull ? 1_000 : 50), "only \(outcome.statesChecked) states")
    }

    /// The harness catches a store that acknowledges before its data is durable: a relaxed store returns before
    /// `fdatasync`, and a power loss then drops saves it acknowledged.
    @Test func theHarnessCatchesAStoreThatAcknowledgesBeforeSyncing() throws {
        let outcome = try Self.run(saves: 6, randomSubsets: 2) { $0.durability = .relaxed }
        #expect(
            outcome.violations.contains { $0.contains("acknowledged save") },
            "a relaxed store lost nothing acknowledged in \(outcome.statesChecked) states")
    }
}
