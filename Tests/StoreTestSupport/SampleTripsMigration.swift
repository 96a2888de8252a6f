package import DataStoreCore
package import DataStoreModels
package import Foundation

// The seeds' three versions of `Trip` and their migration plan, with type renames only: `@Model` becomes
// `PersistentModel` with `schemaAttributes`, `@Attribute(.unique)` an option, `@Attribute(originalName:)` an
// argument.

package enum SampleTripsSchemaV1: VersionedSchema {
    package static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
    package static var models: [any PersistentModel.Type] { [Trip.self] }

    package final class Trip: PersistentModel {
        package static let schemaAttributes: [ModelAttribute<Trip>] = [
            .attribute("name", \.name), .attribute("destination", \.destination),
            .attribute("start_date", \.start_date), .attribute("end_date", \.end_date),
        ]
        package var persistentModelID = PersistentIdentifier()
        package var name = ""
        package var destination = ""
        // swift-format-ignore: AlwaysUseLowerCamelCase
        package var start_date = Date(timeIntervalSinceReferenceDate: 0)
        // swift-format-ignore: AlwaysUseLowerCamelCase
        package var end_date = Date(timeIntervalSinceReferenceDate: 0)
        package init() {}
        package init(name: String, destination: String, start_date: Date, end_date: Date) {
            self.name = name
            self.destination = destination
            self.start_date = start_date
            self.end_date = end_date
        }
    }
}

package enum SampleTripsSchemaV2: VersionedSchema {
    package static var versionIdentifier: Schema.Version { Schema.Version(2, 0, 0) }
    package static var models: [any PersistentModel.Type] { [Trip.self] }

    package final class Trip: PersistentModel {
        package static let schemaAttributes: [ModelAttribute<Trip>] = [
            .attribute("name", \.name, options: .unique), .attribute("destination", \.destination),
            .attribute("start_date", \.start_date), .attribute("end_date", \.end_date),
        ]
        package var persistentModelID = PersistentIdentifier()
        package var name = ""
        package var destination = ""
        // swift-format-ignore: AlwaysUseLowerCamelCase
        package var start_date = Date(timeIntervalSinceReferenceDate: 0)
        // swift-format-ignore: AlwaysUseLowerCamelCase
        package var end_date = Date(timeIntervalSinceReferenceDate: 0)
        package init() {}
    }
}

package enum SampleTripsSchemaV3: VersionedSchema {
    package static var versionIdentifier: Schema.Version { Schema.Version(3, 0, 0) }
    package static var models: [any PersistentModel.Type] { [Trip.self] }

    package final class Trip: PersistentModel {
        package static let schemaAttributes: [ModelAttribute<Trip>] = [
            .attribute("name", \.name, options: .unique), .attribute("destination", \.destination),
            .attribute("startDate", \.startDate, originalName: "start_date"),
            .attribute("endDate", \.endDate, originalName: "end_date"),
        ]
        package var persistentModelID = PersistentIdentifier()
        package var name = ""
        package var destination = ""
        package var startDate = Date(timeIntervalSinceReferenceDate: 0)
        package var endDate = Date(timeIntervalSinceReferenceDate: 0)
        package init() {}
        package init(name: String, destination: String, startDate: Date, endDate: Date) {
            self.name = name
            self.destination = destination
            self.startDate = startDate
            self.endDate = endDate
        }
    }
}

package enum SampleTripsMigrationPlan: SchemaMigrationPlan {
    package static var schemas: [any VersionedSchema.Type] {
        [SampleTripsSchemaV1.self, SampleTripsSchemaV2.self, SampleTripsSchemaV3.self]
    }

    package static var stages: [MigrationStage] {
        [migrateV1toV2, migrateV2toV3]
    }

    package static let migrateV1toV2 = MigrationStage.custom(
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

    package static let migrateV2toV3 = MigrationStage.lightweight(
        fromVersion: SampleTripsSchemaV2.self,
        toVersion: SampleTripsSchemaV3.self
    )
}
