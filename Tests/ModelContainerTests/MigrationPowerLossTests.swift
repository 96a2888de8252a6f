import DataStoreHistory
import Foundation
import JSONFileStorage
import StoreTestSupport
import Testing

/// The seeds' migration plan (V1 → V2 de-duplicates names, V2 → V3 renames the dates) under power loss, not a
/// process kill (see `SimulatedDisk` for what the simulated disk may do): every state after every recorded
/// operation is at version 1 with every row, or past it with the de-duplicated rows; once the container was
/// created, at version 3; and opening any state with the plan finishes the job.
@Suite struct MigrationPowerLossTests {
    /// Enough that the rewritten journal spans a dozen pages, each of which may or may not reach the disk.
    static let trips = 240

    /// The version a store records and the names of its trips, read through that version's model.
    static func inspect(_ directory: URL) throws -> (version: Schema.Version?, names: [String]) {
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

    static func migrate(_ directory: URL) throws {
        _ = try ModelContainer(
            for: SampleTripsSchemaV3.Trip.self, migrationPlan: SampleTripsMigrationPlan.self,
            configurations: ModelConfiguration(
                JSONFileStoreConfiguration(name: "trips", directory: directory)))
    }

    static func check(_ state: URL, acknowledged: Set<String>) -> String? {
        do {
            let (version, names) = try inspect(state)
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
            let after = try inspect(state)
            guard after.version == Schema.Version(3, 0, 0), Set(after.names).count == trips / 2,
                after.names.count == trips / 2
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
            randomSubsets: PowerLossHarness.isFull ? 300 : 12,
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
                try Self.migrate(root)
                acknowledge("migrated")
            },
            check: { state, acknowledged in Self.check(state, acknowledged: acknowledged) })
        print("power loss: migration of \(Self.trips) trips: \(outcome)")
        #expect(outcome.violations.count == 0, "\(outcome.violations.prefix(3))")
        #expect(outcome.acknowledged == ["migrated"])
        #expect(
            outcome.statesChecked >= (PowerLossHarness.isFull ? 1_000 : 30),
            "only \(outcome.statesChecked) states")
    }
}
