import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import JSONFileStorage
import Testing

/// The history talk's `Trip`, with `#Unique<Trip>([\.name, \.startDate, \.endDate])` written without macros.
final class Journey: PersistentModel {
    static let schemaAttributes: [ModelAttribute<Journey>] = [
        .attribute("name", \.name), .attribute("startDate", \.startDate), .attribute("endDate", \.endDate),
        .attribute("notes", \.notes),
    ]
    static var uniqueConstraints: [[PartialKeyPath<Journey>]] { [[\.name, \.startDate, \.endDate]] }
    var persistentModelID = PersistentIdentifier()
    var name = ""
    var startDate = Date(timeIntervalSinceReferenceDate: 0)
    var endDate = Date(timeIntervalSinceReferenceDate: 0)
    var notes = ""
    init() {}
    init(_ name: String, from start: Double, to end: Double, notes: String = "") {
        self.name = name
        startDate = Date(timeIntervalSinceReferenceDate: start)
        endDate = Date(timeIntervalSinceReferenceDate: end)
        self.notes = notes
    }
}

/// A unique constraint naming something that is not an attribute.
final class BadJourney: PersistentModel {
    static let schemaAttributes: [ModelAttribute<BadJourney>] = [.attribute("name", \.name)]
    static var uniqueConstraints: [[PartialKeyPath<BadJourney>]] { [[\.name, \.nickname]] }
    var persistentModelID = PersistentIdentifier()
    var name = ""
    var nickname = ""
    init() {}
}

@Suite struct CompoundUniqueTests {
    func check(_ configuration: ModelConfiguration) throws {
        let container = try ModelContainer(for: [Journey.self], configurations: [configuration])
        let context = ModelContext(container)
        context.insert(Journey("Lisbon", from: 0, to: 86_400, notes: "first"))
        try context.save()
        // The same triple again: an upsert of the first, recorded as an update.
        context.insert(Journey("Lisbon", from: 0, to: 86_400, notes: "second"))
        try context.save()
        // The same name on other dates is another journey.
        context.insert(Journey("Lisbon", from: 86_400, to: 172_800))
        try context.save()

        let journeys = try ModelContext(container).fetch(
            FetchDescriptor<Journey>(sortBy: [SortDescriptor(\.startDate)]))
        #expect(journeys.map(\.notes) == ["second", ""])
        let kinds = try context.fetchHistory(.init()).map { $0.changes.map(\.kind) }
        #expect(kinds == [[.insert], [.update], [.insert]])

        // An update that makes two journeys share the triple is a violation naming all three attributes.
        let other = context.insertedOrFetched(journeys[1])
        other.startDate = Date(timeIntervalSinceReferenceDate: 0)
        other.endDate = Date(timeIntervalSinceReferenceDate: 86_400)
        #expect {
            try context.save()
        } throws: { error in
            guard let error = error as? DataStoreError, error.code == .uniqueConstraintViolation,
                error.entity == "Journey", let value = error.value
            else {
                return false
            }
            return error.attribute == "name, startDate, endDate" && value.hasPrefix(#"("Lisbon", 2001-01-01"#)
        }
    }

    @Test func theSameTripleTwiceIsOneRowInMemory() throws {
        try check(ModelConfiguration(InMemoryStoreConfiguration(name: "journeys")))
    }

    @Test func theSameTripleTwiceIsOneRowInAJSONFileStore() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("compound-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        try check(ModelConfiguration(JSONFileStoreConfiguration(name: "journeys", directory: directory)))
    }

    @Test func aConstraintNamingANonAttributeIsRefusedAtContainerCreation() {
        #expect {
            try ModelContainer(
                for: [BadJourney.self],
                configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "bad"))])
        } throws: { error in
            guard let error = error as? DataStoreError, error.code == .invalidConfiguration,
                let reason = error.reason
            else { return false }
            return reason.contains("BadJourney") && reason.contains("nickname")
        }
    }
}

extension ModelContext {
    /// The context's tracked instance of a model fetched elsewhere.
    func insertedOrFetched(_ journey: Journey) -> Journey {
        (try? existingModel(for: journey.persistentModelID)) as? Journey ?? journey
    }
}
