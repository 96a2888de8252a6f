import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage

/// A small class model for history tests: a unique title and a body.
final class Note: PersistentModel {
    static let schemaAttributes: [ModelAttribute<Note>] = [
        .attribute("title", \.title, options: [.unique, .preserveValueOnDeletion]),
        .attribute("body", \.body),
        .attribute("rank", \.rank),
    ]
    var persistentModelID = PersistentIdentifier()
    var title = ""
    var body = ""
    var rank = 0

    init() {}

    init(title: String, body: String = "", rank: Int = 0) {
        self.title = title
        self.body = body
        self.rank = rank
    }
}

/// A struct model, to show that value types work too.
struct Reading: PersistentModel, Equatable {
    static let schemaAttributes: [ModelAttribute<Reading>] = [
        .attribute("sensor", \.sensor),
        .attribute("value", \.value),
    ]
    var persistentModelID = PersistentIdentifier()
    var sensor = ""
    var value = 0.0

    init() {}

    init(sensor: String, value: Double) {
        self.sensor = sensor
        self.value = value
    }
}

/// An in-memory store holding notes and readings, opened directly or through a container.
func makeNoteStore(name: String = "notes", maximumHistoryCount: Int? = nil) throws -> InMemoryDataStore {
    try InMemoryDataStore(
        InMemoryStoreConfiguration(
            name: name, schema: Schema([Note.self, Reading.self]), maximumHistoryCount: maximumHistoryCount))
}

func makeNoteContainer(name: String = "notes") throws -> ModelContainer {
    try ModelContainer(
        for: [Note.self, Reading.self],
        configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: name))])
}

/// One save of one new note, straight to the store, returning the transaction's token.
@discardableResult
func saveNote(_ title: String, to store: InMemoryDataStore, author: String? = nil) throws
    -> InMemoryHistoryToken
{
    let snapshot = DataStoreSnapshot(
        persistentIdentifier: PersistentIdentifier(
            storeIdentifier: store.identifier, entityName: "Note", primaryKey: title),
        values: ["title": .string(title), "body": .string(""), "rank": .integer(0)])
    let result = try store.save(
        DataStoreSaveChangesRequest(editingState: EditingState(author: author), inserted: [snapshot]))
    guard let token = result.token else {
        throw DataStoreError.invalidSave(store: store.identifier, reason: "no token")
    }
    return token
}
