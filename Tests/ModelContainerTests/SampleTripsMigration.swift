import DataStoreCore
import Foundation

// The seeds' three versions of `Trip` and their migration plan, with type renames only: `@Model` becomes
// `PersistentModel` with `schemaAttributes`, `@Attribute(.unique)` an option, `@Attribute(originalName:)` an
// argument.

enum SampleTripsSchemaV1: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self] }

    final class Trip: PersistentModel {
        static let schemaAttributes: [ModelAttribute<Trip>] = [
            .attribute("name", \.name), .attribute("destination", \.destination),
            .attribute("start_date", \.start_date), .attribute("end_date", \.end_date),
        ]
        var persistentModelID = PersistentIdentifier()
        var name = ""
        var destination = ""
        // swift-format-ignore: AlwaysUseLowerCamelCase
        var start_date = Date(timeIntervalSinceReferenceDate: 0)
        // swift-format-ignore: AlwaysUseLowerCamelCase
        var end_date = Date(timeIntervalSinceReferenceDate: 0)
        init() {}
        init(name: String, destination: String, start_date: Date, end_date: Date) {
            self.name = name
            self.destination = destination
            self.start_date = start_date
            self.end_date = end_date
        }
    }
}

enum SampleTripsSchemaV2: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self] }

    final class Trip: PersistentModel {
        static let schemaAttributes: [ModelAttribute<Trip>] = [
            .attribute("name", \.name, options: .unique), .attribute("destination", \.destination),
            .attribute("start_date", \.start_date), .attribute("end_date", \.end_date),
        ]
        var persistentModelID = PersistentIdentifier()
        var name = ""
        var destination = ""
        // swift-format-ignore: AlwaysUseLowerCamelCase
        var start_date = Date(timeIntervalSinceReferenceDate: 0)
        // swift-format-ignore: AlwaysUseLowerCamelCase
        var end_date = Date(timeIntervalSinceReferenceDate: 0)
        init() {}
    }
}

enum SampleTripsSchemaV3: VersionedSchema {
    static var versionIdentifier: Schema.Version { Schema.Version(3, 0, 0) }
    static var models: [any PersistentModel.Type] { [Trip.self] }

    final class Trip: PersistentModel {
        static let schemaAttributes: [ModelAttribute<Trip>] = [
            .attribute("name", \.name, options: .unique), .attribute("destination", \.destination),
            .attribute("startDate", \.startDate, originalName: "start_date"),
            .attribute("endDate", \.endDate, originalName: "end_date"),
        ]
        var persistentModelID = PersistentIdentifier()
        var name = ""
        var destination = ""
        var startDate = Date(timeIntervalSinceReferenceDate: 0)
        var endDate = Date(timeIntervalSinceReferenceDate: 0)
        init() {}
        init(name: String, destination: String, startDate: Date, endDate: Date) {
            self.name = name
            self.destination = destination
            self.startDate = startDate
            self.endDate = endDate
        }
    }
}

enum SampleTripsMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] {
        [SampleTripsSchemaV1.self, SampleTripsSchemaV2.self, SampleTripsSchemaV3.self]
    }

    static var stages: [MigrationStage] {
        [migrateV1toV2, migrateV2toV3]
    }

    static let migrateV1toV2 = MigrationStage.custom(
        fromVersion: SampleTripsSchemaV1.self,
        toVersion: SampleTripsSchemaV2.self,
        willMigrate: { context in
            let trips = try? context.fetch(
                FetchDescriptor<SampleTripsSchemaV1.Trip>(sortBy: [SortDescriptor(\.start_date)]))

            // De-duplicate trips with the same name: keep the earliest of each.
            var seen: Set<String> = []
            for trip in trips ?? [] where !seen.insert(trip.name).inserted {
                context.delete(trip)
            }

            try? context.save()
        }, didMigrate: nil
    )

    static let migrateV2toV3 = MigrationStage.lightweight(
        fromVersion: SampleTripsSchemaV2.self,
        toVersion: SampleTripsSchemaV3.self
    )
}

typealias Trip = SampleTripsSchemaV3.Trip
