// trip-sync: offline sync through history.
//
// The local side is one container over two stores: trips and stays in a JSON file store, location readings in
// a time-series store. The "server" is another JSON file store in another directory. Each run replicates the
// local history after the composite token saved by the previous run, then saves the new token. Replaying is
// idempotent: a second run copies nothing.

import DataStoreCore
import DataStoreKit
import DataStoreModels
import Foundation
import JSONFileStorage
import SampleTrips
import TimeSeriesStorage

/// Where the traveller was: samples for the time-series store.
struct LocationReading: PersistentModel {
    static let schemaAttributes: [ModelAttribute<LocationReading>] = [
        .attribute("trip", \.trip), .attribute("latitude", \.latitude), .attribute("longitude", \.longitude),
        .attribute("timestamp", \.timestamp),
    ]
    var persistentModelID = PersistentIdentifier()
    var trip = ""
    var latitude = 0.0
    var longitude = 0.0
    var timestamp = Date(timeIntervalSinceReferenceDate: 0)
    init() {}
}

/// The model type of each synced entity.
func modelType(named entity: String) -> (any PersistentModel.Type)? {
    switch entity {
    case Trip.entityName: Trip.self
    case LivingAccommodation.entityName: LivingAccommodation.self
    case LocationReading.entityName: LocationReading.self
    default: nil
    }
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

struct SyncError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// The local container: trips and stays in one store, readings in another.
func openLocal(_ directory: URL) throws -> ModelContainer {
    try ModelContainer(
        for: [Trip.self, LivingAccommodation.self, LocationReading.self],
        configurations: [
            ModelConfiguration(
                JSONFileStoreConfiguration(
                    name: "trips", directory: directory.appendingPathComponent("trips")),
                for: [Trip.self, LivingAccommodation.self]),
            ModelConfiguration(
                TimeSeriesStoreConfiguration(
                    name: "locations", directory: directory.appendingPathComponent("locations")),
                for: [LocationReading.self]),
        ])
}

/// Local activity: the seeds' trips (once), the widget's changes (once), and a day of readings (once).
func recordLocalActivity(_ container: ModelContainer) throws {
    let seeded = try TripsScenario.seed(container)
    let widget = try TripsScenario.widgetStep(container)
    let context = ModelContext(container)
    context.author = "gps"
    var readings = 0
    if try context.fetchCount(FetchDescriptor<LocationReading>(fetchLimit: 1)) == 0 {
        let start = Date().addingTimeInterval(-3_000)
        for minute in 0..<48 {
            var reading = LocationReading()
            reading.trip = "Trip to Lisbon"
            reading.latitude = 38.72 + Double(minute) * 0.001
            reading.longitude = -9.14 - Double(minute) * 0.001
            reading.timestamp = start.addingTimeInterval(Double(minute) * 60)
            context.insert(reading)
            if minute % 12 == 11 { try context.save() }
        }
        readings = 48
    }
    let widgetChanges = (widget.confirmed == nil ? 0 : 1) + (widget.deleted == nil ? 0 : 1)
    say("local: \(seeded) trips seeded, \(widgetChanges) widget changes, \(readings) readings recorded")
}

/// Replicates every local transaction after the saved token to the server, one server save per transaction.
func replicate(local container: ModelContainer, server: JSONFileDataStore, tokenFile: URL) throws -> (
    Int, Int
) {
    var token: CompositeHistoryToken?
    if let data = try? Data(contentsOf: tokenFile) {
        token = try HistoryTokenCoding.decode(CompositeHistoryToken.self, fromJSON: data)
    }
    let context = ModelContext(container)
    var descriptor = HistoryDescriptor<ContainerHistoryTransaction>()
    if let token { descriptor.predicate = #Predicate { $0.token > token } }
    let transactions: [ContainerHistoryTransaction]
    do {
        transactions = try context.fetchHistory(descriptor)
    } catch let error as DataStoreError where error.code == .historyTokenExpired {
        throw SyncError(
            message:
                "local history of '\(error.store ?? "?")' was trimmed past the sync token: a full resync is needed"
        )
    }
    var changes = 0
    for transaction in transactions {
        var request = DataStoreSaveChangesRequest(editingState: EditingState(author: "sync"))
        for change in transaction.changes {
            let serverID = serverIdentifier(change.changedPersistentIdentifier)
            guard let type = modelType(named: serverID.entityName) else { continue }
            let existing = try serverSnapshot(type, serverID, in: server)
            switch change {
            case .insert(let recorded), .update(let recorded):
                guard
                    let values = try recorded.recordedValues
                        ?? currentValues(of: change.changedPersistentIdentifier, in: context)
                else { continue }  // deleted since; its delete follows
                var merged = existing?.values ?? [:]
                merged.merge(values.mapValues(serverValue)) { _, new in new }
                let snapshot = DataStoreSnapshot(persistentIdentifier: serverID, values: merged)
                if existing == nil {
                    request.inserted.append(snapshot)
                } else if existing?.values != merged {
                    request.updated.append(snapshot)
                }
            case .delete:
                if let existing { request.deleted.append(existing) }
            }
        }
        changes += request.inserted.count + request.updated.count + request.deleted.count
        _ = try server.save(request)
        // The token is saved after each transaction, so an interrupted sync resumes where it stopped; replaying
        // a transaction twice is harmless, because inserts of existing models become updates with no change.
        try AtomicFileWriter.replace(tokenFile.path, with: JSONEncoder().encode(transaction.token))
    }
    return (transactions.count, changes)
}

/// The server's identifier for a local model: the same entity and key, in the server store.
func serverIdentifier(_ local: PersistentIdentifier) -> PersistentIdentifier {
    PersistentIdentifier(
        storeIdentifier: "server", entityName: local.entityName, primaryKey: local.primaryKey)
}

/// References to other models point at their server copies.
func serverValue(_ value: SnapshotValue) -> SnapshotValue {
    switch value {
    case .identifier(let id): .identifier(serverIdentifier(id))
    case .array(let values): .array(values.map(serverValue))
    default: value
    }
}

func serverSnapshot<Model: PersistentModel>(
    _: Model.Type, _ id: PersistentIdentifier, in server: JSONFileDataStore
)
    throws -> DataStoreSnapshot?
{
    try server.fetch(
        DataStoreFetchRequest(
            descriptor: FetchDescriptor<Model>(
                predicate: #Predicate { $0.persistentModelID == id }, fetchLimit: 1))
    ).snapshots.first
}

/// For stores that do not record values in history: the model's current state, or `nil` if it is gone.
func currentValues(of id: PersistentIdentifier, in context: ModelContext) throws -> [String: SnapshotValue]? {
    try context.existingModel(for: id)?.snapshotValues
}

func run(local: URL, serverDirectory: URL) throws {
    let container = try openLocal(local)
    // The time-series store commits its open window, and nothing is used after this function.
    defer { try? container.close() }
    try recordLocalActivity(container)
    let server = try JSONFileDataStore(
        JSONFileStoreConfiguration(
            name: "server", schema: Schema([Trip.self, LivingAccommodation.self, LocationReading.self]),
            directory: serverDirectory))
    let (transactions, changes) = try replicate(
        local: container, server: server, tokenFile: local.appendingPathComponent("sync-token.json"))
    say("sync: replicated \(transactions) transactions (\(changes) changes) to the server")
    let counts = try server.modelCountsByEntity()
    say(
        "server: \(counts["Trip"] ?? 0) trips, \(counts["LivingAccommodation"] ?? 0) stays, "
            + "\(counts["LocationReading"] ?? 0) readings")
    // The server must now agree with the local stores.
    let localContext = ModelContext(container)
    let localCounts = [
        try localContext.fetchCount(FetchDescriptor<Trip>()),
        try localContext.fetchCount(FetchDescriptor<LivingAccommodation>()),
        try localContext.fetchCount(FetchDescriptor<LocationReading>()),
    ]
    let serverCounts = [
        counts["Trip"] ?? 0, counts["LivingAccommodation"] ?? 0, counts["LocationReading"] ?? 0,
    ]
    guard localCounts == serverCounts else {
        throw SyncError(
            message: "the server holds \(serverCounts) models where the local stores hold \(localCounts)")
    }
}

let usage = """
    usage: trip-sync [--local DIRECTORY] [--server DIRECTORY]

    Replicates the local stores' history (in DIRECTORY/trips and DIRECTORY/locations) to a server store,
    resuming from the composite token in DIRECTORY/sync-token.json. Without directories, temporary ones
    are used and removed. Run it twice with the same directories: the second run replicates nothing.
    """

var localDirectory: URL?
var serverDirectory: URL?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--local": localDirectory = arguments.popFirst().map { URL(fileURLWithPath: $0, isDirectory: true) }
    case "--server":
        serverDirectory = arguments.popFirst().map { URL(fileURLWithPath: $0, isDirectory: true) }
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        FileHandle.standardError.write(Data("trip-sync: unknown argument '\(argument)'\n\n\(usage)\n".utf8))
        exit(2)
    }
}
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("trip-sync-\(UUID().uuidString)")
let local = localDirectory ?? scratch.appendingPathComponent("local")
let server = serverDirectory ?? scratch.appendingPathComponent("server")
do {
    try FileManager.default.createDirectory(at: local, withIntermediateDirectories: true)
    try run(local: local, serverDirectory: server)
    try? FileManager.default.removeItem(at: scratch)
} catch {
    try? FileManager.default.removeItem(at: scratch)
    FileHandle.standardError.write(Data("trip-sync: \(error)\n".utf8))
    exit(1)
}
