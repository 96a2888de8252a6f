import DataStoreCore
import Foundation
import JSONFileStorage
import StoreTestSupport

/// A fresh directory under the system's temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "jsonfile-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    var journal: URL { url.appendingPathComponent("journal.jsonl") }
    var snapshot: URL { url.appendingPathComponent("snapshot.json") }
}

final class Memo: PersistentModel {
    static let schemaAttributes: [ModelAttribute<Memo>] = [
        .attribute("title", \.title, options: [.unique, .preserveValueOnDeletion]),
        .attribute("body", \.body),
    ]
    var persistentModelID = PersistentIdentifier()
    var title = ""
    var body = ""
    init() {}
    init(title: String, body: String = "") {
        self.title = title
        self.body = body
    }
}

func openMemoStore(
    _ directory: URL, readOnly: Bool = false, durability: JSONFileStoreConfiguration.Durability = .full
) throws -> JSONFileDataStore {
    try JSONFileDataStore(
        .init(
            name: "memos", schema: Schema([Memo.self]), directory: directory, durability: durability,
            isReadOnly: readOnly))
}

/// One save of one new memo, straight to the store.
@discardableResult
func saveMemo(_ title: String, body: String = "", to store: JSONFileDataStore, author: String? = nil) throws
    -> JSONFileHistoryToken?
{
    let snapshot = DataStoreSnapshot(
        persistentIdentifier: PersistentIdentifier(
            storeIdentifier: store.identifier, entityName: "Memo", primaryKey: title),
        values: ["title": .string(title), "body": .string(body)])
    return try store.save(
        DataStoreSaveChangesRequest(editingState: EditingState(author: author), inserted: [snapshot])
    )
    .token
}

/// The bytes of every file in a directory, with modification times, to show that nothing was written (the lock
/// file's change count aside).
func fingerprint(_ directory: URL) throws -> [String: String] {
    var result: [String: String] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    where !isLockFile(name) {
        let path = directory.appendingPathComponent(name).path
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        result[name] = "\(data.count) bytes, hash \(data.hashValue), modified \(modified)"
    }
    return result
}
