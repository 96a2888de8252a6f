import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import JSONFileStorage
import Testing

/// A model with an indexed category and a title kept in tombstones.
final class BulkNote: PersistentModel {
    static let schemaAttributes: [ModelAttribute<BulkNote>] = [
        .attribute("title", \.title, options: .preserveValueOnDeletion), .attribute("category", \.category),
    ]
    static var indexes: [[PartialKeyPath<BulkNote>]] { [[\.category]] }
    var persistentModelID = PersistentIdentifier()
    var title = ""
    var category = 0
    init() {}
}

/// Issue 33: deleting 10,000 of 100,000 models by predicate examines only the 10,000 (the predicate is an
/// equality on an indexed attribute), commits one transaction of exactly those deletes with their tombstones,
/// and leaves the other 90,000 as they were.
///
/// `swift test` runs it on the in-memory store; the JSON file store finds its matches with the same table
/// (`SnapshotTable.saveRequest(deleting:modelsExamined:)`) and passes too, in about ten seconds of a debug
/// build: run it with `DATASTORE_SLOW_TESTS=1`.
@Suite struct BatchDeleteScaleTests {
    enum Route: String, CaseIterable, CustomStringConvertible {
        case inMemory, jsonFile
        var description: String { rawValue }
    }

    static var routes: [Route] {
        ProcessInfo.processInfo.environment["DATASTORE_SLOW_TESTS"] == nil ? [.inMemory] : Route.allCases
    }

    @Test(arguments: routes) func tenThousandOfAHundredThousand(_ route: Route) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "batch-scale-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration =
            switch route {
            case .inMemory: ModelConfiguration(InMemoryStoreConfiguration(name: "notes"))
            case .jsonFile:
                ModelConfiguration(JSONFileStoreConfiguration(name: "notes", directory: directory))
            }
        let container = try ModelContainer(for: [BulkNote.self], configurations: [configuration])
        let memory = container.store("notes", as: InMemoryDataStore.self)
        let file = container.store("notes", as: JSONFileDataStore.self)
        let inserts = (0..<100_000).map { index in
            DataStoreSnapshot(
                persistentIdentifier: PersistentIdentifier(
                    storeIdentifier: "notes", entityName: "BulkNote", primaryKey: "n\(index)"),
                values: ["title": .string("note \(index)"), "category": .integer(Int64(index % 10))])
        }
        let request = DataStoreSaveChangesRequest(inserted: inserts)
        _ = try memory?.save(request)
        _ = try file?.save(request)
        let examined = { memory?.modelsExamined ?? file?.statistics.modelsExamined ?? 0 }
        let context = ModelContext(container)
        let before = try #require(try context.fetchHistory(.init()).last?.token)
        let examinedBefore = examined()

        try context.delete(model: BulkNote.self, where: #Predicate { $0.category == 3 })
        try context.save()

        #expect(examined() - examinedBefore == 10_000, "only the rows the index holds for category 3")
        let transactions = try context.fetchHistory(
            HistoryDescriptor(predicate: #Predicate { $0.token > before }))
        #expect(transactions.count == 1)
        let changes = try #require(transactions.first).changes
        #expect(changes.count == 10_000)
        #expect(changes.allSatisfy { $0.kind == .delete })
        #expect(
            Set(changes.compactMap { $0.tombstone?["title"] })
                == Set((0..<100_000).filter { $0 % 10 == 3 }.map { SnapshotValue.string("note \($0)") }))
        #expect(try context.fetchCount(FetchDescriptor<BulkNote>()) == 90_000)
        #expect(
            try context.fetchCount(FetchDescriptor<BulkNote>(predicate: #Predicate { $0.category == 3 })) == 0
        )
    }
}
