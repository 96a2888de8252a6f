import DataStoreCore
import DataStoreModels
import Foundation
import JSONFileStorage
import StoreTestSupport
import Testing

/// The seeds' V1 → V2 → V3 plan on a JSON file store, and the plan's bad inputs.
/// The version the app runs now, under the name the seed uses.
private typealias Trip = SampleTripsSchemaV3.Trip

@Suite struct MigrationPlanTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "migration-\(UUID().uuidString)")

    func configuration() -> ModelConfiguration {
        ModelConfiguration(JSONFileStoreConfiguration(name: "trips", directory: directory))
    }

    func day(_ n: Double) -> Date { Date(timeIntervalSinceReferenceDate: n * 86_400) }

    /// What the version-1 app wrote: duplicate names included.
    func writeVersionOneData() throws {
        let container = try ModelContainer(
            for: SampleTripsSchemaV1.models, migrationPlan: nil, configurations: [configuration()])
        let context = ModelContext(container)
        for (index, name) in ["Paris", "Rome", "Paris", "Oslo", "Rome"].enumerated() {
            context.insert(
                SampleTripsSchemaV1.Trip(
                    name: name, destination: "d\(index)", start_date: day(Double(index)),
                    end_date: day(Double(index) + 3)))
            try context.save()
        }
    }

    func recordedSchema() throws -> Schema? {
        try JSONFileDataStore(JSONFileStoreConfiguration(name: "trips", directory: directory))
            .recordedSchema()
    }

    @Test func theSeedsThreeVersionPlanRunsAsWritten() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try writeVersionOneData()
        let container = try ModelContainer(
            for: [Trip.self], migrationPlan: SampleTripsMigrationPlan.self, configurations: [configuration()])
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate)]))
        // Unique names, the first of each kept; the renamed properties read the old values.
        #expect(trips.map(\.name) == ["Paris", "Rome", "Oslo"])
        #expect(trips.map(\.startDate) == [day(0), day(1), day(3)])
        #expect(trips.map(\.endDate) == [day(3), day(4), day(6)])
        #expect(try recordedSchema()?.version == Schema.Version(3, 0, 0))

        // History: the five saves before, then the migration's deletes as one transaction by its author.
        let history = try context.fetchHistory(HistoryDescriptor())
        #expect(history.count == 6)
        #expect(history.prefix(5).allSatisfy { $0.author == nil && $0.changes.count == 1 })
        let migration = try #require(history.last)
        #expect(migration.author == MigrationStage.migrationAuthor)
        #expect(migration.changes.count == 2)
        #expect(migration.changes.allSatisfy { if case .delete = $0 { true } else { false } })

        // V2's `.unique` is enforced: inserting "Rome" again updates the existing trip.
        context.insert(Trip(name: "Rome", destination: "again", startDate: day(9), endDate: day(10)))
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()) == 3)

        // Opening again with the plan migrates nothing more.
        let again = try ModelContainer(
            for: [Trip.self], migrationPlan: SampleTripsMigrationPlan.self, configurations: [configuration()])
        #expect(try ModelContext(again).fetchHistory(HistoryDescriptor()).count == 7)
    }

    @Test func withoutThePlanTheDuplicatesRefuseUnique() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try writeVersionOneData()
        let journal = directory.appendingPathComponent("journal.jsonl")
        let before = try recordBytes(of: journal)
        #expect {
            try ModelContainer(
                for: SampleTripsSchemaV2.models, migrationPlan: nil, configurations: [configuration()])
        } throws: { error in
            guard let error = error as? DataStoreError, error.code == .incompatibleSchema else {
                return false
            }
            return error.entity == "Trip" && error.attribute == "name"
                && ["Paris", "Rome"].contains { error.reason?.contains($0) == true }
        }
        #expect(try recordBytes(of: journal) == before)
    }

    enum SkippingPlan: SchemaMigrationPlan {
        static var schemas: [any VersionedSchema.Type] {
            [SampleTripsSchemaV1.self, SampleTripsSchemaV2.self, SampleTripsSchemaV3.self]
        }
        static var stages: [MigrationStage] {
            [.lightweight(fromVersion: SampleTripsSchemaV1.self, toVersion: SampleTripsSchemaV3.self)]
        }
    }

    enum OldPlan: SchemaMigrationPlan {
        static var schemas: [any VersionedSchema.Type] {
            [SampleTripsSchemaV1.self, SampleTripsSchemaV2.self]
        }
        static var stages: [MigrationStage] { [SampleTripsMigrationPlan.migrateV1toV2] }
    }

    struct StageFailure: Error {}

    enum ThrowingPlan: SchemaMigrationPlan {
        static var schemas: [any VersionedSchema.Type] { SampleTripsMigrationPlan.schemas }
        static var stages: [MigrationStage] {
            [
                SampleTripsMigrationPlan.migrateV1toV2,
                .custom(
                    fromVersion: SampleTripsSchemaV2.self, toVersion: SampleTripsSchemaV3.self,
                    willMigrate: { context in
                        for trip in try context.fetch(FetchDescriptor<SampleTripsSchemaV2.Trip>()) {
                            context.delete(trip)
                        }
                        throw StageFailure()
                    }, didMigrate: nil),
            ]
        }
    }

    @Test func badPlansAndFailingStagesLeaveTheStoreAtItsLastCompleteVersion() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try writeVersionOneData()
        let journal = directory.appendingPathComponent("journal.jsonl")
        let before = try recordBytes(of: journal)
        // A stage that skips a version does not chain.
        #expect {
            try ModelContainer(
                for: [Trip.self], migrationPlan: SkippingPlan.self, configurations: [configuration()])
        } throws: { ($0 as? DataStoreError)?.code == .invalidMigrationPlan }
        #expect(try recordBytes(of: journal) == before)

        // A stage that throws: V1 → V2 completed, V2 → V3 did not, and its deletes were not committed.
        #expect {
            try ModelContainer(
                for: [Trip.self], migrationPlan: ThrowingPlan.self, configurations: [configuration()])
        } throws: { error in
            guard let error = error as? DataStoreError, error.code == .migrationFailed else { return false }
            return error.underlyingError is StageFailure
        }
        #expect(try recordedSchema()?.version == Schema.Version(2, 0, 0))
        let atV2 = try ModelContainer(
            for: SampleTripsSchemaV2.models, migrationPlan: nil, configurations: [configuration()])
        #expect(try ModelContext(atV2).fetchCount(FetchDescriptor<SampleTripsSchemaV2.Trip>()) == 3)

        // The full plan finishes the job; an older app's plan then finds a store newer than it knows.
        _ = try ModelContainer(
            for: [Trip.self], migrationPlan: SampleTripsMigrationPlan.self, configurations: [configuration()])
        #expect(try recordedSchema()?.version == Schema.Version(3, 0, 0))
        let atV3 = try recordBytes(of: journal)
        #expect {
            try ModelContainer(
                for: SampleTripsSchemaV2.models, migrationPlan: OldPlan.self,
                configurations: [configuration()])
        } throws: { error in
            guard let error = error as? DataStoreError, error.code == .unknownDataStoreSchema else {
                return false
            }
            return error.reason?.contains("newer") == true
        }
        #expect(try recordBytes(of: journal) == atV3)
    }

    /// A store at a version the plan does not list (a build of the app between two released versions) is a
    /// schema the app does not know: `unknownDataStoreSchema` naming the versions the plan knows, and nothing
    /// written.
    @Test func aVersionThePlanDoesNotListIsAnUnknownSchema() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let between = try ModelContainer(
                for: Schema(SampleTripsSchemaV1.models, version: Schema.Version(1, 5, 0)),
                configurations: [configuration()])
            let context = ModelContext(between)
            context.insert(
                SampleTripsSchemaV1.Trip(
                    name: "Paris", destination: "FR", start_date: day(0), end_date: day(1)))
            try context.save()
        }
        let before = try recordBytes(of: directory.appendingPathComponent("journal.jsonl"))
        #expect {
            try ModelContainer(
                for: [SampleTripsSchemaV3.Trip.self], migrationPlan: SampleTripsMigrationPlan.self,
                configurations: [configuration()])
        } throws: { error in
            guard let error = error as? DataStoreError, error.code == .unknownDataStoreSchema else {
                return false
            }
            return error.reason?.contains("1.5.0") == true && error.reason?.contains("3.0.0") == true
        }
        #expect(try recordBytes(of: directory.appendingPathComponent("journal.jsonl")) == before)
    }
}

/// What stays true of history and tokens across a migration, and what an older app meets.
@Suite struct MigrationHistoryTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "migration-\(UUID().uuidString)")

    func configuration() -> ModelConfiguration {
        ModelConfiguration(JSONFileStoreConfiguration(name: "trips", directory: directory))
    }

    @Test func tokensIssuedBeforeAMigrationStayValidAndOlderVersionsAreRefused() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let v1 = try ModelContainer(
            for: SampleTripsSchemaV1.models, migrationPlan: nil, configurations: [configuration()])
        let context = ModelContext(v1)
        context.insert(
            SampleTripsSchemaV1.Trip(
                name: "Paris", destination: "FR", start_date: Date(timeIntervalSinceReferenceDate: 0),
                end_date: Date(timeIntervalSinceReferenceDate: 86_400)))
        try context.save()
        let before = try #require(try context.fetchHistory(HistoryDescriptor()).last?.token)

        let v3 = try ModelContainer(
            for: [SampleTripsSchemaV3.Trip.self], migrationPlan: SampleTripsMigrationPlan.self,
            configurations: [configuration()])
        let later = ModelContext(v3)
        later.insert(
            SampleTripsSchemaV3.Trip(
                name: "Rome", destination: "IT", startDate: Date(timeIntervalSinceReferenceDate: 0),
                endDate: Date(timeIntervalSinceReferenceDate: 86_400)))
        try later.save()
        // The token from before the migration still works: the migration is not an erase.
        let after = try later.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > before }))
        #expect(after.count == 1)
        #expect(after.first?.author == nil)

        // Version 2's models on a store at version 3: refused, nothing dropped.
        #expect {
            try ModelContainer(for: SampleTripsSchemaV2.schema, configurations: [configuration()])
        } throws: { error in
            guard let error = error as? DataStoreError, error.code == .unknownDataStoreSchema else {
                return false
            }
            return error.reason?.contains("newer") == true
        }
        #expect(try ModelContext(v3).fetchCount(FetchDescriptor<SampleTripsSchemaV3.Trip>()) == 2)
    }
}
