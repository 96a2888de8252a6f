import DataStoreHistory
import Foundation
import JSONFileStorage
import StoreTestSupport
import Testing

/// The seeds' migration plan (V1 → V2 de-duplicates names, V2 → V3 renames the dates) under power loss, not a
/// process kill (see `SimulatedDisk` for what the simulated disk may do): every state after every recorded
/// operation is at version 1 with every row, or past it with the de-duplicated rows; once the container was
/// created, at version 3; and opening any state with the plan finishes the job. After the migration the app
/// saves new trips, and its checkpoints rewrite the journal and snapshot in the new schema: every save
/// acknowledged is there whole.
@Suite struct MigrationPowerLossTests {
    /// The trips the version-1 app wrote (every name twice): the schema record holding the migrated rows spans
    /// a few pages, each of which may or may not reach the disk.
    static let trips = 80
    /// Saves after the migration: enough for a checkpoint or two.
    static var laterSaves: Int { PowerLossHarness.isFull ? 16 : 3 }

    @discardableResult
    static func migrate(_ directory: URL) throws -> ModelContainer {
        var configuration = JSONFileStoreConfiguration(name: "trips", directory: directory)
        configuration.checkpointJournalBytes = 6_000
        configuration.checkpointJournalRatio = nil
        return try ModelContainer(
            for: SampleTripsSchemaV3.Trip.self, migrationPlan: SampleTripsMigrationPlan.self,
            configurations: ModelConfiguration(configuration))
    }

    static func check(_ state: URL, acknowledged: Set<String>) -> String? {
        do {
            let (version, all) = try inspectTrips(state)
            let names = all.filter { !$0.hasPrefix("new ") }
            let added = Set(all.filter { $0.hasPrefix("new ") })
            for label in acknowledged where label.hasPrefix("new ") && !added.contains(label) {
                return "the acknowledged save of \(label) is missing"
            }
            if version != Schema.Version(3, 0, 0) && !added.isEmpty {
                return "new trips at \(String(describing: version))"
            }
            switch version {
            case nil, Schema.Version(1, 0, 0)?:
                if acknowledged.contains("migrated") {
                    return "the migration returned but the store is at V1"
                }
                if names.count != trips { return "at V1 with \(names.count) of \(trips) trips" }
            case Schema.Version(2, 0, 0)?, Schema.Version(3, 0, 0)?:
                if acknowledged.contains("migrated") && version != Schema.Version(3, 0, 0) {
                    return "the migration returned but the store is at \(String(describing: version))"
                }
                if names.count != trips / 2 || Set(names).count != trips / 2 {
                    return
                        "at \(String(describing: version)) with \(names.count) trips, \(Set(names).count) names"
                }
            default:
                return "the store is at version \(String(describing: version))"
            }
            try migrate(state)
            let after = try inspectTrips(state)
            guard after.version == Schema.Version(3, 0, 0), Set(after.names).count == trips / 2 + added.count,
                after.names.count == trips / 2 + added.count
            else {
                return
                    "opening with the plan left \(String(describing: after.version)), \(after.names.count) trips"
            }
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func aMigrationSurvivesEveryPowerLossState() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "migration-power-loss-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = directory.appendingPathComponent("store")
        let outcome = try PowerLossHarness.run(
            root: root, scratch: directory.appendingPathComponent("crash"),
            randomSubsets: PowerLossHarness.isFull ? 24 : 0,
            prepare: {
                // What the version-1 app wrote: every name twice.
                let container = try ModelContainer(
                    for: SampleTripsSchemaV1.models, migrationPlan: nil,
                    configurations: [
                        ModelConfiguration(JSONFileStoreConfiguration(name: "trips", directory: root))
                    ])
                let context = ModelContext(container)
                for index in 0..<Self.trips {
                    let start = Date(timeIntervalSinceReferenceDate: Double(index) * 60)
                    context.insert(
                        SampleTripsSchemaV1.Trip(
                            name: "trip \(index % (Self.trips / 2))", destination: "d\(index)",
                            start_date: start,
                            end_date: start.addingTimeInterval(3_600)))
                }
                try context.save()
                try container.close()
            },
            workload: { _, acknowledge in
                let container = try Self.migrate(root)
                acknowledge("migrated")
                let context = ModelContext(container)
                for index in 0..<Self.laterSaves {
                    let start = Date(timeIntervalSinceReferenceDate: 1e6 + Double(index) * 60)
                    context.insert(
                        SampleTripsSchemaV3.Trip(
                            name: "new \(index)", destination: "d", startDate: start, endDate: start))
                    try context.save()
                    acknowledge("new \(index)")
                }
                try container.close()
            },
            check: { state, acknowledged in Self.check(state, acknowledged: acknowledged) })
        print("power loss: migration of \(Self.trips) trips: \(outcome)")
        #expect(outcome.violations.count == 0, "\(outcome.violations.prefix(3))")
        #expect(outcome.acknowledged == Set(["migrated"] + (0..<Self.laterSaves).map { "new \($0)" }))
        #expect(
            outcome.statesChecked >= (PowerLossHarness.isFull ? 1_000 : 40),
            "only \(outcome.statesChecked) states")
    }
}
