import DataStoreCore
import DataStoreModels
import Foundation
import Testing
import TimeSeriesStorage

/// A calibration run, itself a sample: readings refer to the run they were taken in.
final class CalibrationRun: PersistentModel {
    static let schemaAttributes: [ModelAttribute<CalibrationRun>] = [
        .attribute("label", \.label), .attribute("timestamp", \.timestamp),
    ]
    var persistentModelID = PersistentIdentifier()
    var label = ""
    var timestamp = Date()
    init() {}
}

/// A reading with a to-one reference to its run: no inverse, the default `.nullify` rule.
final class RunReading: PersistentModel {
    static let schemaAttributes: [ModelAttribute<RunReading>] = [
        .attribute("value", \.value), .attribute("timestamp", \.timestamp), .relationship("run", \.run),
    ]
    var persistentModelID = PersistentIdentifier()
    var value = 0.0
    var timestamp = Date()
    @Relationship var run: CalibrationRun?
    init() {}
}

/// A run that owns its readings: a to-many relationship, which needs updates.
final class OwningRun: PersistentModel {
    static let schemaAttributes: [ModelAttribute<OwningRun>] = [
        .attribute("timestamp", \.timestamp), .relationship("readings", \.readings),
    ]
    var persistentModelID = PersistentIdentifier()
    var timestamp = Date()
    @Relationship var readings: [RunReading] = []
    init() {}
}

/// A reading that deletes its run with it: `.cascade`, which needs deletes.
final class CascadingReading: PersistentModel {
    static let schemaAttributes: [ModelAttribute<CascadingReading>] = [
        .attribute("timestamp", \.timestamp), .relationship("run", \.run, deleteRule: .cascade),
    ]
    var persistentModelID = PersistentIdentifier()
    var timestamp = Date()
    @Relationship var run: CalibrationRun?
    init() {}
}

@Suite struct TimeSeriesRelationshipTests {
    func configuration(_ directory: URL, _ types: [any PersistentModel.Type]) -> TimeSeriesStoreConfiguration
    {
        TimeSeriesStoreConfiguration(
            name: "runs", schema: Schema(types), directory: directory, acceptedLateness: 86_400)
    }

    @Test func toOneReferencesAreKeptAndPredicatesFollowThem() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let container = try ModelContainer(
            for: [RunReading.self],
            configurations: [
                ModelConfiguration(configuration(directory.url, [RunReading.self, CalibrationRun.self]))
            ])
        #expect(Set(container.schema.entities.map(\.name)) == ["RunReading", "CalibrationRun"])
        let context = ModelContext(container)
        let morning = CalibrationRun()
        morning.label = "morning"
        let evening = CalibrationRun()
        evening.label = "evening"
        for (index, run) in [morning, morning, evening].enumerated() {
            let reading = RunReading()
            reading.value = Double(index)
            reading.run = run
            context.insert(reading)
        }
        try context.save()

        let fresh = ModelContext(container)
        let taken = try fresh.fetch(
            FetchDescriptor<RunReading>(
                predicate: #Predicate { $0.run?.label == "morning" }, sortBy: [SortDescriptor(\.value)]))
        #expect(taken.map(\.value) == [0, 1])
        #expect(taken.map { $0.run?.label } == ["morning", "morning"])
        #expect(taken[0].run === taken[1].run)

        // A predicate that does not follow the relationship reads no more segments than one on a model
        // without relationships: the referenced samples are read only when a lookup needs them.
        let store = try #require(container.store("runs", as: TimeSeriesDataStore.self))
        var before = store.statistics.segmentsOpened
        _ = try ModelContext(container).fetch(
            FetchDescriptor<CalibrationRun>(predicate: #Predicate { $0.label != "" }))
        let plain = store.statistics.segmentsOpened - before
        before = store.statistics.segmentsOpened
        _ = try ModelContext(container).fetch(
            FetchDescriptor<RunReading>(predicate: #Predicate { $0.value >= 0 }))
        #expect(store.statistics.segmentsOpened - before == plain)
    }

    @Test(arguments: ["toMany", "cascade", "inverse"])
    func relationshipsThatNeedUpdatesOrDeletesAreRefusedAtOpen(_ kind: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (types, entity, relationship): ([any PersistentModel.Type], String, String) =
            switch kind {
            case "toMany": ([OwningRun.self, RunReading.self, CalibrationRun.self], "OwningRun", "readings")
            case "cascade": ([CascadingReading.self, CalibrationRun.self], "CascadingReading", "run")
            default: ([RunReading.self, CalibrationRun.self], "CalibrationRun", "readings")
            }
        var schema = Schema(types)
        if kind == "inverse" {
            // An inverse recorded on the run's side: a to-many back to its readings.
            let index = try #require(schema.entities.firstIndex { $0.name == "CalibrationRun" })
            schema.entities[index].relationships = [
                Schema.Relationship(
                    name: "readings", destination: "RunReading", isToMany: false, deleteRule: .noAction,
                    inverse: "run")
            ]
        }
        #expect {
            try TimeSeriesDataStore(
                TimeSeriesStoreConfiguration(name: "runs", schema: schema, directory: directory.url))
        } throws: { error in
            guard let error = error as? DataStoreError, error.code == .invalidRelationship else {
                return false
            }
            return error.entity == entity && error.attribute == relationship
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }
}
