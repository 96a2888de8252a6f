import DataStoreCore
import Foundation
import InMemoryStorage
import JSONFileStorage
import TimeSeriesStorage

/// The benchmarks' model: a small note with a unique title.
struct Note: PersistentModel, Hashable {
    static let schemaAttributes: [ModelAttribute<Note>] = [
        .attribute("title", \.title, options: [.unique, .preserveValueOnDeletion]),
        .attribute("body", \.body),
        .attribute("rank", \.rank), .attribute("timestamp", \.timestamp),
    ]
    static let schema = Schema([Note.self])
    var persistentModelID = PersistentIdentifier()
    var title = ""
    var body = ""
    var rank = 0
    var timestamp = Date(timeIntervalSinceReferenceDate: 0)
    init() {}
}

/// A snapshot of note `index` in `store`, with a short key so the key itself is not what is measured.
func note(_ index: Int, store: String, body: String = "hello", at date: Date = Date()) -> DataStoreSnapshot {
    DataStoreSnapshot(
        persistentIdentifier: PersistentIdentifier(
            storeIdentifier: store, entityName: "Note", primaryKey: "n\(index)"),
        values: [
            "title": .string("note \(index)"), "body": .string(body), "rank": .integer(Int64(index % 100)),
            "timestamp": .date(date),
        ])
}

/// A scratch directory for one scenario, removed afterwards.
final class Scratch {
    let url: URL
    init(_ name: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "datastore-bench-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> URL { url.appendingPathComponent(name) }
    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Sizes for a full run and for `--quick`.
struct Sizes {
    var historyTransactions: Int
    var jsonModels: Int
    var saves: Int
    var tsSamples: Int
    var openModels: Int
    var openChanges: Int
    var memoryChanges: Int
    /// History changes a JSON file store retains in `RetainedHistoryScenario`.
    var retainedChanges: Int
    var modelLayerModels: Int
    var repetitions: Int
    /// The peer scenarios: rounds of loads of Northwind's orders (500 loads in all in a full run, as Lighter's
    /// suite), and rounds of creating the simple users (100,000 each, as the RealmVsSwiftData suite).
    var peerLoadRounds = 10
    var peerLoadsPerRound = 50
    var peerCreateRounds = 5
    var peerUsers = 100_000

    static let full = Sizes(
        historyTransactions: 1_000_000, jsonModels: 100_000, saves: 200, tsSamples: 1_000_000,
        openModels: 100_000,
        openChanges: 1_000_000, memoryChanges: 1_000_000, retainedChanges: 1_000_000,
        modelLayerModels: 10_000, repetitions: 7)
    static let quick = Sizes(
        historyTransactions: 50_000, jsonModels: 10_000, saves: 50, tsSamples: 100_000, openModels: 10_000,
        openChanges: 50_000, memoryChanges: 100_000, retainedChanges: 100_000, modelLayerModels: 10_000,
        repetitions: 5, peerLoadRounds: 5, peerLoadsPerRound: 4, peerCreateRounds: 3, peerUsers: 20_000)
}
