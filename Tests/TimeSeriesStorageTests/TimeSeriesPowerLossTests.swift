import DataStoreCore
import Foundation
import StoreTestSupport
import Testing
import TimeSeriesStorage

/// Power loss during the time-series store's durable saves, segment rollovers and retention (see
/// `SimulatedDisk` for what the simulated disk may do): after every recorded operation, every state a power
/// loss could leave must open read-only and read-write, hold every acknowledged save whole unless retention
/// removed it (oldest first, never the newest commit), and hold no save in part. `DATASTORE_POWER_LOSS=full` checks
/// about ten times as many states (`.ci/run` runs it).
@Suite struct TimeSeriesPowerLossTests {
    static var isFull: Bool { PowerLossHarness.isFull }

    /// Saves `saves` batches of three readings, two batches per segment (each save's readings lie 30 s after
    /// the previous save's, and a segment spans 60 s), and checks every state.
    static func run(
        saves: Int, randomSubsets: Int,
        retention: TimeSeriesStoreConfiguration.RetentionPolicy = .keepEverything,
        durable: Bool = true
    ) throws -> PowerLossHarness.Outcome {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = directory.url.appendingPathComponent("store")
        let configuration = TimeSeriesStoreConfiguration.readings(
            root, span: 60, retention: retention, durable: durable)
        let start = Date().addingTimeInterval(-86_400)
        let outcome = try PowerLossHarness.run(
            root: root, scratch: directory.url.appendingPathComponent("crash"), randomSubsets: randomSubsets,
            prepare: { try TimeSeriesDataStore(configuration) },
            workload: { store, acknowledge in
                for save in 0..<saves {
                    let batch = (0..<3).map { index in
                        DataStoreSnapshot(
                            persistentIdentifier: PersistentIdentifier(
                                storeIdentifier: "sensors", entityName: "Reading",
                                primaryKey: "s\(save)-\(index)"),
                            values: [
                                "sensor": .string("s1"), "value": .double(Double(save)),
                                "timestamp": .date(start.addingTimeInterval(Double(save * 30 + index))),
                            ])
                    }
                    if (try? store.save(DataStoreSaveChangesRequest(inserted: batch))) != nil {
                        acknowledge("\(save)")
                    }
                }
                // So a retention run shows that retention did remove something.
                let first = try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Reading>()))
                    .snapshots
                    .contains { $0.persistentIdentifier.primaryKey == "s0-0" }
                if !first { acknowledge("first save retained away") }
            },
            check: { state, acknowledged in
                check(
                    state, configuration: configuration,
                    acknowledged: Set(acknowledged.compactMap { Int($0) }),
                    saves: saves, retains: retention != .keepEverything)
            })
        print(
            "power loss: time series, \(saves) saves, retention \(retention != .keepEverything): \(outcome)")
        return outcome
    }

    /// Opens the state read-only, then read-write; `nil` when what each reads is acceptable.
    static func check(
        _ state: URL, configuration: TimeSeriesStoreConfiguration, acknowledged: Set<Int>, saves: Int,
        retains: Bool
    ) -> String? {
        var configuration = configuration
        configuration.directory = state
        for readOnly in [true, false] {
            configuration.isReadOnly = readOnly
            let mode = readOnly ? "read-only" : "read-write"
            let keys: Set<String>
            do {
                let store = try TimeSeriesDataStore(configuration)
                keys = Set(
                    try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Reading>())).snapshots
                        .map(
                            \.persistentIdentifier.primaryKey))
            } catch {
                return "opening \(mode) failed: \(error)"
            }
            var present: [Int] = []
            for save in 0..<saves {
                let count = (0..<3).filter { keys.contains("s\(save)-\($0)") }.count
                if count != 0 && count != 3 {
                    return "save \(save) is there in part: \(count) of 3 readings (\(mode))"
                }
                if count == 3 { present.append(save) }
            }
            let lost = acknowledged.subtracting(present)
            guard !lost.isEmpty else { continue }
            // Only retention may remove an acknowledged save: the oldest ones, and never the newest commit (a
            // save after the last acknowledged one may be that commit, committed but not yet acknowledged).
            guard retains, let newest = acknowledged.max(), let newestPresent = present.max(),
                newestPresent >= newest,
                let oldestPresent = present.min(), lost.allSatisfy({ $0 < oldestPresent })
            else {
                return "acknowledged saves \(lost.sorted()) are missing; present: \(present) (\(mode))"
            }
        }
        return nil
    }

    @Test func durableSavesAndSegmentRolloversSurviveEveryPowerLossState() throws {
        let saves = Self.isFull ? 24 : 8
        let outcome = try Self.run(saves: saves, randomSubsets: Self.isFull ? 24 : 2)
        #expect(outcome.violations.count == 0, "\(outcome.violations.prefix(3))")
        #expect(outcome.acknowledged.count == saves)
        #expect(outcome.statesChecked >= (Self.isFull ? 1_000 : 50), "only \(outcome.statesChecked) states")
    }

    @Test func retentionSurvivesEveryPowerLossState() throws {
        let saves = Self.isFull ? 24 : 8
        let outcome = try Self.run(
            saves: saves, randomSubsets: Self.isFull ? 24 : 2, retention: .init(maximumSize: 2_000))
        #expect(outcome.violations.count == 0, "\(outcome.violations.prefix(3))")
        #expect(outcome.acknowledged.count == saves + 1)
        #expect(outcome.acknowledged.contains("first save retained away"))
        #expect(outcome.statesChecked >= (Self.isFull ? 1_000 : 50), "only \(outcome.statesChecked) states")
    }

    /// The harness catches a store that acknowledges before its data is durable.
    @Test func theHarnessCatchesAStoreThatAcknowledgesBeforeSyncing() throws {
        let outcome = try Self.run(saves: 6, randomSubsets: 2, durable: false)
        #expect(
            outcome.violations.contains { $0.contains("acknowledged saves") },
            "a non-durable store lost nothing acknowledged in \(outcome.statesChecked) states")
    }
}
