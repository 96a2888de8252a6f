import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import JSONFileStorage
import SampleTrips
import StoreTestSupport

/// A shelf that refuses to be deleted while it holds books (`.deny`).
final class Shelf: PersistentModel {
    static let schemaAttributes: [ModelAttribute<Shelf>] = [
        .attribute("label", \.label),
        .relationship("books", \.books, deleteRule: .deny, inverse: \Book.shelf),
    ]
    var persistentModelID = PersistentIdentifier()
    var label = ""
    @Relationship var books: [Book] = []
    init() {}
    init(label: String) { self.label = label }
}

/// A book on a shelf; deleting it takes it off the shelf (`.nullify`, the default).
final class Book: PersistentModel {
    static let schemaAttributes: [ModelAttribute<Book>] = [
        .attribute("title", \.title),
        .relationship("shelf", \.shelf, options: .preserveValueOnDeletion),
    ]
    var persistentModelID = PersistentIdentifier()
    var title = ""
    @Relationship var shelf: Shelf?
    init() {}
    init(title: String) { self.title = title }
}

/// Two models that cascade into each other: deleting either deletes both, once.
final class Ping: PersistentModel {
    static let schemaAttributes: [ModelAttribute<Ping>] = [
        .attribute("name", \.name),
        .relationship("pong", \.pong, deleteRule: .cascade, inverse: \Pong.ping),
    ]
    var persistentModelID = PersistentIdentifier()
    var name = ""
    @Relationship var pong: Pong?
    init() {}
}

/// The other half of the cycle.
final class Pong: PersistentModel {
    static let schemaAttributes: [ModelAttribute<Pong>] = [
        .attribute("name", \.name),
        .relationship("ping", \.ping, deleteRule: .cascade),
    ]
    var persistentModelID = PersistentIdentifier()
    var name = ""
    @Relationship var ping: Ping?
    init() {}
}

/// An inverse that does not point back: `Book.shelf` points to `Shelf`, not to `Misfiled`.
final class Misfiled: PersistentModel {
    static let schemaAttributes: [ModelAttribute<Misfiled>] = [
        .relationship("book", \.book, inverse: \Book.shelf)
    ]
    var persistentModelID = PersistentIdentifier()
    @Relationship var book: Book?
    init() {}
}

/// A relationship declared on a plain stored property, without `@Relationship`.
final class Unwrapped: PersistentModel {
    static let schemaAttributes: [ModelAttribute<Unwrapped>] = [
        .relationship("book", \.book)
    ]
    var persistentModelID = PersistentIdentifier()
    var book: Book?
    init() {}
}

/// Containers and stores for relationship tests: the seeds' trips in memory or in a JSON file store.
struct TripStores {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "relationships-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// A container for `types` (and what they relate to) over one store of `kind`.
    func container(_ kind: Kind, _ types: [any PersistentModel.Type] = [Trip.self], name: String = "trips")
        throws -> ModelContainer
    {
        switch kind {
        case .inMemory:
            return try ModelContainer(
                for: types, configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: name))])
        case .jsonFile:
            return try ModelContainer(
                for: types,
                configurations: [
                    ModelConfiguration(
                        JSONFileStoreConfiguration(
                            name: name, directory: directory.appendingPathComponent(name)))
                ])
        }
    }

    /// Every file under the directory with its bytes, to show a refused save wrote nothing.
    func fingerprint() throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
                !isDirectory.boolValue, !isLockFile(url.path)
            {
                files[url.path] = try Data(contentsOf: url)
            }
        }
        return files
    }

    enum Kind: String, CaseIterable, Sendable, CustomStringConvertible {
        case inMemory, jsonFile
        var description: String { rawValue }
    }
}

/// A trip with an accommodation and `items` bucket-list items, inserted and saved.
@discardableResult
func makeTrip(_ name: String, items: Int, in context: ModelContext) throws -> Trip {
    let trip = Trip(name: name, destination: name, startDay: 0, days: 3)
    context.insert(trip)
    trip.livingAccommodation = LivingAccommodation(address: "1 \(name) St", placeName: "Stay in \(name)")
    for index in 0..<items {
        trip.bucketList.append(BucketListItem(title: "\(name) \(index)"))
    }
    try context.save()
    return trip
}
