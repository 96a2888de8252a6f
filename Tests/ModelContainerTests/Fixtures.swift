import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import JSONFileStorage
import TimeSeriesStorage

/// One model type per store, so every entity has its own route.
final class Note: PersistentModel {
    static let schemaAttributes: [ModelAttribute<Note>] = [
        .attribute("title", \.title, options: .preserveValueOnDeletion), .attribute("body", \.body),
    ]
    var persistentModelID = PersistentIdentifier()
    var title = ""
    var body = ""
    init() {}
    init(title: String) { self.title = title }
}

final class Person: PersistentModel {
    static let schemaAttributes: [ModelAttribute<Person>] = [
        .attribute("name", \.name, options: [.unique, .preserveValueOnDeletion]), .attribute("age", \.age),
    ]
    var persistentModelID = PersistentIdentifier()
    var name = ""
    var age = 0
    init() {}
    init(name: String, age: Int = 30) {
        self.name = name
        self.age = age
    }
}

struct Sample: PersistentModel {
    static let schemaAttributes: [ModelAttribute<Sample>] = [
        .attribute("value", \.value), .attribute("timestamp", \.timestamp),
    ]
    var persistentModelID = PersistentIdentifier()
    var value = 0.0
    var timestamp = Date()
    init() {}
    init(value: Double) { self.value = value }
}

/// Opens an in-memory store for the given types, so containers can share it.
func openStore(_ name: String, _ types: [any PersistentModel.Type]) throws -> InMemoryDataStore {
    try InMemoryDataStore(InMemoryStoreConfiguration(name: name, schema: Schema(types)))
}

/// Three stores of different backends, one entity each: in memory, a JSON file store and a time-series store,
/// the last two in a temporary directory removed by `remove()`.
struct ThreeStores {
    let notes: InMemoryDataStore
    let people: JSONFileDataStore
    let samples: TimeSeriesDataStore
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "container-tests-\(UUID().uuidString)")
        notes = try openStore("alpha", [Note.self])
        // Relaxed durability: these tests are about merging, not fsync, and run hundreds of saves.
        people = try JSONFileDataStore(
            .init(
                name: "beta", schema: Schema([Person.self]),
                directory: directory.appendingPathComponent("beta"),
                durability: .relaxed))
        samples = try TimeSeriesDataStore(
            .init(
                name: "gamma", schema: Schema([Sample.self]),
                directory: directory.appendingPathComponent("gamma"),
                isDurable: false))
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    func container(including includeSamples: Bool = true) throws -> ModelContainer {
        var configurations = [
            ModelConfiguration(store: notes, for: [Note.self]),
            ModelConfiguration(store: people, for: [Person.self]),
        ]
        var types: [any PersistentModel.Type] = [Note.self, Person.self]
        if includeSamples {
            configurations.append(ModelConfiguration(store: samples, for: [Sample.self]))
            types.append(Sample.self)
        }
        return try ModelContainer(for: types, configurations: configurations)
    }
}

/// A small deterministic generator, so every seed replays the same interleaving.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// What identifies a transaction across fetches.
struct TransactionKey: Hashable, CustomStringConvertible {
    var store: String
    var identifier: Int64
    init(_ transaction: ContainerHistoryTransaction) {
        store = transaction.storeIdentifier
        identifier = transaction.transactionIdentifier
    }
    var description: String { "\(store)#\(identifier)" }
}

func roundTrip(_ token: CompositeHistoryToken) throws -> CompositeHistoryToken {
    try HistoryTokenCoding.decode(CompositeHistoryToken.self, fromJSON: JSONEncoder().encode(token))
}
