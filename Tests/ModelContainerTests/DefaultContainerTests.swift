import DataStoreHistory
import Foundation
import StoreTestSupport
import Testing

/// SwiftData's container and configuration lines, through the `DataStoreHistory` module.
@Suite struct DefaultContainerTests {
    func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent(
            "default-container-\(UUID().uuidString)")
    }

    @Test func theDefaultContainerKeepsDataBetweenRunsOfAProgram() throws {
        let home = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["DATASTOREHISTORY_DATA_HOME": home.path]
        let first = try ChildProcess(["default-container-insert", "Lisbon"], environment: environment)
        #expect(first.waitForExit(timeout: .seconds(60)) == 0)
        let second = try ChildProcess(["default-container-count"], environment: environment)
        #expect(second.waitForExit(timeout: .seconds(60)) == 0)
        #expect(second.output == ["COUNT 1"])
        // Where the documentation says: <data home>/<program>/default.store.
        let journal = home.appendingPathComponent("datastore-test-process/default.store/journal.jsonl")
        #expect(FileManager.default.fileExists(atPath: journal.path))
    }

    @Test func anUnwritableDefaultLocationFailsWithATypedError() throws {
        let environment = ["DATASTOREHISTORY_DATA_HOME": "/proc/datastore-cannot-write-here"]
        let child = try ChildProcess(["default-container-insert", "Lisbon"], environment: environment)
        #expect(child.waitForExit(timeout: .seconds(60)) != 0)
        #expect(child.output.isEmpty)
    }

    @Test func inMemoryOnlyUrlAndReadOnlyConfigurations() throws {
        // isStoredInMemoryOnly: a store that lives as long as its container.
        let memory = try ModelContainer(
            for: [Note.self], configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
        let context = ModelContext(memory)
        context.insert(Note(title: "kept in memory"))
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Note>()) == 1)
        let fresh = try ModelContainer(
            for: [Note.self], configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
        #expect(try ModelContext(fresh).fetchCount(FetchDescriptor<Note>()) == 0)

        // url: a durable store at a chosen place, reopened by a second container.
        let url = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: url) }
        let durable = try ModelContainer(for: [Note.self], configurations: [ModelConfiguration(url: url)])
        let writer = ModelContext(durable)
        writer.insert(Note(title: "on disk"))
        try writer.save()
        let again = try ModelContainer(
            for: [Note.self], configurations: [ModelConfiguration(schema: Schema([Note.self]), url: url)])
        #expect(try ModelContext(again).fetch(FetchDescriptor<Note>()).map(\.title) == ["on disk"])

        // allowsSave: false reads, and refuses to save.
        let reader = try ModelContainer(
            for: [Note.self], configurations: [ModelConfiguration(allowsSave: false, url: url)])
        let readOnly = ModelContext(reader)
        #expect(try readOnly.fetchCount(FetchDescriptor<Note>()) == 1)
        readOnly.insert(Note(title: "refused"))
        #expect {
            try readOnly.save()
        } throws: { error in
            if case DataStoreError.readOnlyStore = error { return true }
            return false
        }
        // ...and does not create a store that does not exist.
        let missing = temporaryDirectory()
        #expect {
            try ModelContainer(
                for: [Note.self], configurations: [ModelConfiguration(allowsSave: false, url: missing)])
        } throws: { error in
            if case DataStoreError.storageUnavailable = error { return true }
            return false
        }
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }

    @Test func aSchemaOfModelTypesOpensAContainer() throws {
        let url = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: url) }
        let schema = Schema([Note.self, Person.self])
        let container = try ModelContainer(
            for: schema, configurations: ModelConfiguration(schema: schema, url: url))
        #expect(container.schema == schema)
        let context = ModelContext(container)
        context.insert(Note(title: "from a schema"))
        try context.save()
        let again = try ModelContainer(for: schema, configurations: [ModelConfiguration(url: url)])
        #expect(try ModelContext(again).fetch(FetchDescriptor<Note>()).map(\.title) == ["from a schema"])

        // A schema of entities alone (as a store reports it) has no types to make models from.
        #expect {
            try ModelContainer(
                for: Schema(entities: schema.entities), configurations: ModelConfiguration(url: url))
        } throws: { error in
            (error as? DataStoreError)?.code == .invalidConfiguration
        }
        // The model types are not part of the schema's value: it encodes and compares by its entities.
        let decoded = try JSONDecoder().decode(Schema.self, from: JSONEncoder().encode(schema))
        #expect(decoded == schema)
    }
}
