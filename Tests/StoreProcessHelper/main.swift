// datastore-test-process: the other processes of the multi-process tests. Each mode opens a store in a
// directory, does one job and reports on standard output, one line per event, flushed at once.

import DataStoreCore
import DataStoreHistory
import Foundation
import JSONFileStorage
import SampleTrips
import StoreTestSupport
import TimeSeriesStorage

#if PostgreSQL
    import PostgresStorage
#endif

func report(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("datastore-test-process: \(message)\n".utf8))
    exit(1)
}

/// Runs `body` with the entry store of the named backend in `directory`.
func withEntryStore<T>(
    backend: String, directory: String, _ body: (any EntryStore) async throws -> T
) async throws -> T {
    let url = URL(fileURLWithPath: directory)
    switch backend {
    case "jsonfile":
        return try await body(
            try JSONFileDataStore(.init(name: "entries", schema: Entry.schema, directory: url)))
    case "jsonfile-checkpointing":
        // Checkpoints every few saves and trims history to 16 transactions: the kill -9 test of both.
        var configuration = JSONFileStoreConfiguration(name: "entries", schema: Entry.schema, directory: url)
        configuration.checkpointJournalBytes = 2_048
        configuration.checkpointJournalRatio = nil
        configuration.historyRetention = .init(maximumTransactionCount: 16)
        return try await body(try JSONFileDataStore(configuration))
    case "timeseries":
        return try await body(
            try TimeSeriesDataStore(
                .init(name: "entries", schema: Entry.schema, directory: url, segmentSpan: 1)))
    case "postgres":
        // DIR is the PostgreSQL schema; the server is DATASTORE_POSTGRES_URL's.
        #if PostgreSQL
            guard let url = ProcessInfo.processInfo.environment["DATASTORE_POSTGRES_URL"] else {
                fail("postgres needs DATASTORE_POSTGRES_URL")
            }
            return try await body(
                try PostgresDataStore(
                    .init(
                        name: "entries", schema: Entry.schema, connectionString: url,
                        databaseSchema: directory)))
        #else
            fail("built without the PostgreSQL trait")
        #endif
    default: fail("unknown backend \(backend)")
    }
}

/// What the helper needs of a store: saving, and following history.
protocol EntryStore: DataStore, HistoryObserving
where HistoryType.Token: StoreHistoryToken, Token == HistoryType.Token {}
extension JSONFileDataStore: EntryStore {}
extension TimeSeriesDataStore: EntryStore {}
#if PostgreSQL
    extension PostgresDataStore: EntryStore {}
#endif

/// Saves of three entries each; "ACK <sequence>" after each acknowledged save.
func writeLoop(_ store: some EntryStore, writer: String, count: Int) throws {
    // Keys carry the process identifier, so every run of a loop writes new models.
    let keyPrefix = "\(writer)-\(ProcessInfo.processInfo.processIdentifier)"
    report("READY")
    var round = 0
    while round < count {
        let result = try store.save(
            DataStoreSaveChangesRequest(
                editingState: EditingState(author: writer),
                inserted: Entry.batch(store: store.identifier, writer: keyPrefix, round: round)))
        report("ACK \(result.token?.sequence ?? -1)")
        round += 1
    }
}

/// Reads history `count` times, then "READ <count>".
func readLoop(_ store: some EntryStore, count: Int) throws {
    for _ in 0..<count { _ = try store.fetchHistory(HistoryDescriptor(fetchLimit: 1)) }
    report("READ \(count)")
}

/// Follows history from the beginning: "TX <sequence> <changes>" for each transaction, until `count`.
func follow(_ store: some EntryStore, count: Int) async throws {
    report("READY")
    var seen = 0
    for try await transaction in store.historyUpdates(after: nil) {
        report("TX \(transaction.token.sequence) \(transaction.changes.count)")
        seen += 1
        if seen == count { break }
    }
}

func tripsContainer(_ directory: String) throws -> ModelContainer {
    try ModelContainer(
        for: [Trip.self, LivingAccommodation.self],
        configurations: [
            ModelConfiguration(
                JSONFileStoreConfiguration(name: "trips", directory: URL(fileURLWithPath: directory)))
        ])
}

/// The seeds' trips (or `model`) on a JSON file store in `directory` that saves without waiting for the disk
/// (for tests that exercise interleavings, not durability).
func relaxedTripsContainer(
    _ directory: String, of model: any PersistentModel.Type = Trip.self
) throws -> ModelContainer {
    try ModelContainer(
        for: [model],
        configurations: [
            ModelConfiguration(
                JSONFileStoreConfiguration(
                    name: "trips", directory: URL(fileURLWithPath: directory), durability: .relaxed))
        ])
}

/// Runs a `TripEditor` of `model` on the commands of standard input (see `trip-editor`).
func editTrips<Model: EditableTrip>(_ model: Model.Type, author: String) throws {
    var editor: TripEditor<Model>?
    while let line = readLine() {
        if line.hasPrefix("open ") {
            let container = try relaxedTripsContainer(String(line.dropFirst(5)), of: model)
            editor = TripEditor(container: container, author: author)
            report("OK")
        } else if line.hasPrefix("open-postgres ") {
            guard model == Trip.self else { fail("open-postgres edits the sample's Trip only") }
            editor = TripEditor(
                container: try postgresTripsContainer(String(line.dropFirst(14))), author: author)
            report("OK")
        } else {
            report(editor?.perform(line) ?? "ERROR no store open")
        }
    }
}

/// The seeds' trips in the PostgreSQL schema `namespace` of the server named by `DATASTORE_POSTGRES_URL`.
func postgresTripsContainer(_ namespace: String) throws -> ModelContainer {
    #if PostgreSQL
        guard let url = ProcessInfo.processInfo.environment["DATASTORE_POSTGRES_URL"] else {
            fail("open-postgres needs DATASTORE_POSTGRES_URL")
        }
        return try ModelContainer(
            for: [Trip.self],
            configurations: [
                ModelConfiguration(
                    PostgresStoreConfiguration(
                        name: "trips", connectionString: url, databaseSchema: namespace))
            ])
    #else
        fail("built without the PostgreSQL trait")
    #endif
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "write-loop":
        // write-loop BACKEND DIR WRITER [COUNT]
        guard arguments.count >= 4 else { fail("usage: write-loop BACKEND DIR WRITER [COUNT]") }
        let count = arguments.count > 4 ? Int(arguments[4]) ?? 0 : Int.max
        try await withEntryStore(backend: arguments[1], directory: arguments[2]) { store in
            try writeLoop(store, writer: arguments[3], count: count)
        }
    case "read-loop":
        // read-loop BACKEND DIR COUNT: opens the store writable, as an app would, and only reads.
        guard arguments.count == 4, let count = Int(arguments[3]) else {
            fail("usage: read-loop BACKEND DIR COUNT")
        }
        try await withEntryStore(backend: arguments[1], directory: arguments[2]) { store in
            try readLoop(store, count: count)
        }
    case "default-container-insert":
        // default-container-insert NAME: the seeds' container line, one insert, an explicit save.
        let container = try ModelContainer(for: Trip.self, LivingAccommodation.self)
        let context = ModelContext(container)
        let trip = Trip()
        trip.name = arguments[1]
        context.insert(trip)
        try context.save()
        report("SAVED \(arguments[1])")
    case "main-context-insert":
        // main-context-insert NAME: inserts on the main context and exits normally without calling save().
        let container = try ModelContainer(for: Trip.self, LivingAccommodation.self)
        let trip = Trip()
        trip.name = arguments[1]
        container.mainContext.insert(trip)
        report("INSERTED \(arguments[1])")
    case "seed-v1-trips":
        // seed-v1-trips DIR COUNT: what the version-1 app wrote, in one save: COUNT trips, every name twice.
        guard arguments.count == 3, let count = Int(arguments[2]) else {
            fail("usage: seed-v1-trips DIR COUNT")
        }
        let container = try ModelContainer(
            for: SampleTripsSchemaV1.models, migrationPlan: nil,
            configurations: [
                ModelConfiguration(
                    JSONFileStoreConfiguration(name: "trips", directory: URL(fileURLWithPath: arguments[1])))
            ])
        let context = ModelContext(container)
        for index in 0..<count {
            let start = Date(timeIntervalSinceReferenceDate: Double(index) * 60)
            context.insert(
                SampleTripsSchemaV1.Trip(
                    name: "trip \(index % max(1, count / 2))", destination: "d\(index)", start_date: start,
                    end_date: start.addingTimeInterval(3_600)))
        }
        try context.save()
        report("SEEDED \(count)")
    case "migrate-trips":
        // migrate-trips DIR: opens the store with the seeds' V1 → V2 → V3 plan.
        report("READY")
        _ = try ModelContainer(
            for: SampleTripsSchemaV3.Trip.self, migrationPlan: SampleTripsMigrationPlan.self,
            configurations: ModelConfiguration(
                JSONFileStoreConfiguration(name: "trips", directory: URL(fileURLWithPath: arguments[1]))))
        report("MIGRATED")
    case "default-container-count":
        let container = try ModelContainer(for: [Trip.self, LivingAccommodation.self])
        report("COUNT \(try ModelContext(container).fetchCount(FetchDescriptor<Trip>()))")
    case "follow":
        // follow BACKEND DIR COUNT
        guard arguments.count == 4, let count = Int(arguments[3]) else {
            fail("usage: follow BACKEND DIR COUNT")
        }
        try await withEntryStore(backend: arguments[1], directory: arguments[2]) { store in
            try await follow(store, count: count)
        }
    case "ts-window-exit":
        // Saves into an hour-long commit window and returns from main without flushing: the window must be
        // committed at exit.
        guard arguments.count == 3, let rounds = Int(arguments[2]) else {
            fail("usage: ts-window-exit DIR N")
        }
        let store = try TimeSeriesDataStore(
            .init(
                name: "entries", schema: Entry.schema, directory: URL(fileURLWithPath: arguments[1]),
                commitWindow: 3_600))
        for round in 0..<rounds {
            _ = try store.save(
                DataStoreSaveChangesRequest(
                    inserted: Entry.batch(store: store.identifier, writer: "w", round: round)))
        }
        report("SAVED \(rounds * 3)")
    case "ts-main-context-exit":
        // ts-main-context-exit DIR: the main context over a time-series store with an hour-long commit
        // window; one entry saved explicitly, a second left to the autosave at exit.
        let container = try ModelContainer(
            for: [Entry.self],
            configurations: [
                ModelConfiguration(
                    TimeSeriesStoreConfiguration(
                        name: "entries", schema: Entry.schema, directory: URL(fileURLWithPath: arguments[1]),
                        commitWindow: 3_600))
            ])
        func entry(_ key: String) -> Entry {
            var entry = Entry()
            entry.key = key
            entry.timestamp = Date()
            return entry
        }
        container.mainContext.insert(entry("saved"))
        try container.mainContext.save()
        container.mainContext.insert(entry("autosaved"))
        report("INSERTED 2")
    case "main-context-background-exit":
        // main-context-background-exit DIR: the main queue keeps changing the main context while another
        // thread exits the process: the exit's autosave must not touch the context from that thread.
        let container = try ModelContainer(
            for: [Entry.self],
            configurations: [
                ModelConfiguration(
                    JSONFileStoreConfiguration(
                        name: "entries", schema: Entry.schema, directory: URL(fileURLWithPath: arguments[1]),
                        durability: .relaxed))
            ])
        let context = container.mainContext
        nonisolated(unsafe) var round = 0
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now(), repeating: .microseconds(200))
        timer.setEventHandler {
            MainActor.assumeIsolated {
                round += 1
                var entry = Entry()
                entry.key = "k\(round)"
                context.insert(entry)
                if round % 7 == 0 { try? context.save() }
            }
        }
        timer.resume()
        Thread.detachNewThread {
            usleep(30_000)
            exit(0)
        }
        dispatchMain()
    case "trips-seed":
        report("SEEDED \(try TripsScenario.seed(try tripsContainer(arguments[1])))")
    case "trips-widget":
        let result = try TripsScenario.widgetStep(try tripsContainer(arguments[1]))
        report("CONFIRMED \(result.confirmed ?? "-")")
        report("DELETED \(result.deleted ?? "-")")
    case "trips-app":
        let unread = TripsScenario.appStep(
            try tripsContainer(arguments[1]), tokenFile: URL(fileURLWithPath: arguments[2]))
        for name in unread { report("UNREAD \(name)") }
        report("DONE \(unread.count)")
    case "music-rate":
        // music-rate DIR NAME RATING AUTHOR: sets the rating of the playlist named NAME in the music store in DIR.
        guard arguments.count == 5, let rating = Int(arguments[3]) else {
            fail("usage: music-rate DIR NAME RATING AUTHOR")
        }
        let context = ModelContext(try musicContainer(URL(fileURLWithPath: arguments[1])))
        context.author = arguments[4]
        let name = arguments[2]
        guard
            let playlist = try context.fetch(
                FetchDescriptor<Playlist>(predicate: #Predicate { $0.name == name })
            )
            .first
        else { fail("no playlist named \(name)") }
        playlist.rating = rating
        try context.save()
        report("RATED")
    case "trip-editor":
        // trip-editor AUTHOR [plain]: a TripEditor taking commands from standard input, one answer line each,
        // until the input ends. `open DIR` (re)opens the trips container on a JSON file store in DIR;
        // `open-postgres SCHEMA` on the PostgreSQL server of DATASTORE_POSTGRES_URL. With `plain`, the trips are
        // `PlainTrip`s (the seeds' spelling) on the JSON file store.
        if arguments.dropFirst(2).first == "plain" {
            try editTrips(PlainTrip.self, author: arguments[1])
        } else {
            try editTrips(Trip.self, author: arguments[1])
        }
    case "sync-device":
        try runSyncDevice(arguments)
    default:
        fail("unknown mode \(arguments.first ?? "(none)")")
    }
} catch {
    fail("\(error)")
}
