import DataStoreCore
import Foundation
import JSONFileStorage
import StoreTestSupport
import Testing

/// A migration is all or nothing: a process killed at any moment of the seeds' plan leaves the store at the
/// old version with every row, or at a new one with the de-duplicated rows, and the next open finishes the job.
///
/// `swift test` migrates 2,000 models 20 times, finishing the migration after every fourth kill; with
/// `DATASTORE_SOAK=1` (as `.ci/run` runs it) 10,000 models, finishing after every kill; under a sanitizer 8
/// times (``TestScale``).
@Suite struct MigrationCrashTests {
    static let soak = ProcessInfo.processInfo.environment["DATASTORE_SOAK"] == "1"
    static let trips = soak ? 10_000 : 2_000

    func inspect(_ directory: URL) throws -> (version: Schema.Version?, names: [String]) {
        try inspectTrips(directory)
    }

    @Test func killedAtRandomMomentsTheStoreIsAtOneVersionOrTheOther() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "migration-crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let template = root.appendingPathComponent("template")
        let seed = try ChildProcess(["seed-v1-trips", template.path, "\(Self.trips)"])
        #expect(seed.waitForExit(timeout: .seconds(120)) == 0)

        // One uninterrupted run, to know how long a migration takes on this machine.
        let timed = root.appendingPathComponent("timed")
        try FileManager.default.copyItem(at: template, to: timed)
        let started = ContinuousClock.now
        let full = try ChildProcess(["migrate-trips", timed.path])
        #expect(full.waitForExit(timeout: .seconds(120)) == 0)
        let duration = ContinuousClock.now - started
        #expect(full.output == ["READY", "MIGRATED"])

        var random = SplitMix64(seed: 15)
        var outcomes: [String: Int] = [:]
        for round in 0..<TestScale.rounds(20, underSanitizer: 8) {
            let directory = root.appendingPathComponent("round-\(round)")
            try FileManager.default.copyItem(at: template, to: directory)
            let child = try ChildProcess(["migrate-trips", directory.path])
            _ = child.waitForLines(1, timeout: .seconds(30))
            let fraction = Double.random(in: 0...1.1, using: &random)
            Thread.sleep(
                forTimeInterval: fraction * Double(duration.components.seconds) + fraction
                    * Double(duration.components.attoseconds) / 1e18)
            child.kill9()
            child.waitForExit()
            let (version, names) = try inspect(directory)
            switch version {
            case nil, Schema.Version(1, 0, 0)?:
                // Nothing of the migration (the version-1 app recorded no version): every row, duplicates
                // included.
                #expect(names.count == Self.trips, "round \(round)")
                outcomes["v1", default: 0] += 1
            case Schema.Version(2, 0, 0)?, Schema.Version(3, 0, 0)?:
                #expect(names.count == Self.trips / 2, "round \(round)")
                #expect(Set(names).count == names.count, "round \(round)")
                outcomes["v2+", default: 0] += 1
            default:
                Issue.record("round \(round): the store is at version \(String(describing: version))")
            }
            // Opening with the plan finishes the job, whatever the kill left.
            guard Self.soak || round.isMultiple(of: 4) else { continue }
            let finish = try ChildProcess(["migrate-trips", directory.path])
            #expect(finish.waitForExit(timeout: .seconds(120)) == 0, "round \(round)")
            let after = try inspect(directory)
            #expect(after.version == Schema.Version(3, 0, 0), "round \(round)")
            #expect(Set(after.names).count == Self.trips / 2, "round \(round)")
            try? FileManager.default.removeItem(at: directory)
        }
        // Both outcomes happened, so the kills did land during the migration.
        #expect(outcomes.count == 2, "outcomes: \(outcomes)")
    }

    /// Issue 37, item 11: the app and its widget, updated together, open the store with the same migration plan
    /// at the same moment. One migrates; the other waits for it and opens the migrated store, instead of
    /// failing with `schemaChanged`.
    @Test func twoProcessesOpeningWithOnePlanAtOnceBothOpen() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "migration-race-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let template = root.appendingPathComponent("template")
        let seed = try ChildProcess(["seed-v1-trips", template.path, "400"])
        #expect(seed.waitForExit(timeout: .seconds(120)) == 0)
        for round in 0..<6 {
            let directory = root.appendingPathComponent("round-\(round)")
            try FileManager.default.copyItem(at: template, to: directory)
            let openers = try (0..<2).map { _ in try ChildProcess(["migrate-trips", directory.path]) }
            for opener in openers {
                #expect(opener.waitForExit(timeout: .seconds(120)) == 0, "round \(round)")
                #expect(opener.output == ["READY", "MIGRATED"], "round \(round)")
            }
            let after = try inspect(directory)
            #expect(after.version == Schema.Version(3, 0, 0))
            #expect(Set(after.names).count == 200)
        }
    }
}

/// A trips store's recorded version and its trips' names, read through that version's model (V3 renamed the
/// dates): what a crash or a power loss during the seeds' migration left.
func inspectTrips(_ directory: URL) throws -> (version: Schema.Version?, names: [String]) {
    let store = try JSONFileDataStore(JSONFileStoreConfiguration(name: "trips", directory: directory))
    let version = try store.recordedSchema()?.version
    let snapshots =
        version == Schema.Version(3, 0, 0)
        ? try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<SampleTripsSchemaV3.Trip>()))
            .snapshots
        : try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<SampleTripsSchemaV1.Trip>()))
            .snapshots
    return (version, snapshots.compactMap { $0.values["name"].flatMap { String(snapshotValue: $0) } })
}
