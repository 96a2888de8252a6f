// postgres-sync: two devices, each with a JSON file store, sync with one PostgreSQL store in both directions
// through DataStoreSync's engine. Needs the PostgreSQL trait and a server:
//
//   Scripts/with-postgres swift run --traits PostgreSQL postgres-sync --directory /tmp/trips-sync
//
// The first run makes concurrent edits on both devices and on the server, syncs, and checks that all three hold
// the same trips; a later run on the same directory and server has nothing to sync.

import Foundation

#if PostgreSQL
    import DataStoreCore
    import JSONFileStorage
    import PostgresStorage
    import DataStoreSync

    /// A trip as the devices plan it.
    struct PlannedTrip: PersistentModel {
        static let schemaAttributes: [ModelAttribute<PlannedTrip>] = [
            .attribute("name", \.name), .attribute("destination", \.destination),
            .attribute("nights", \.nights),
        ]
        var persistentModelID = PersistentIdentifier()
        var name = ""
        var destination = ""
        var nights = 0
        init() {}
    }

    func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    func argument(_ name: String) -> String? {
        let arguments = CommandLine.arguments
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }

    /// Saves a change to one trip, as an app's context would.
    func edit<Store: DataStore>(
        _ store: Store, author: String, _ body: (inout PlannedTrip) -> Void, key: String
    )
        throws
    {
        let id = PersistentIdentifier(
            storeIdentifier: store.identifier, entityName: "PlannedTrip", primaryKey: key)
        let existing = try store.fetch(
            DataStoreFetchRequest(
                descriptor: FetchDescriptor<PlannedTrip>(predicate: #Predicate { $0.persistentModelID == id })
            )
        ).snapshots.first
        var trip = try existing.map { try PlannedTrip(snapshot: $0) } ?? PlannedTrip()
        trip.persistentModelID = id
        body(&trip)
        var request = DataStoreSaveChangesRequest(editingState: EditingState(author: author))
        if existing == nil { request.inserted = [trip.snapshot] } else { request.updated = [trip.snapshot] }
        _ = try store.save(request)
    }

    func trips<Store: DataStore>(_ store: Store) throws -> [String] {
        try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<PlannedTrip>())).snapshots.map {
            let trip = try PlannedTrip(snapshot: $0)
            return "\(trip.name) to \(trip.destination), \(trip.nights) nights"
        }.sorted()
    }

    func run() throws {
        guard let directory = argument("--directory").map({ URL(fileURLWithPath: $0) }) else {
            say("usage: postgres-sync --directory DIR [--postgres CONNECTION]")
            exit(64)
        }
        guard
            let connection = argument("--postgres")
                ?? ProcessInfo.processInfo.environment["DATASTORE_POSTGRES_URL"]
        else {
            say("postgres-sync needs a server: --postgres CONNECTION, or run it under Scripts/with-postgres")
            exit(64)
        }
        // Each device's store configuration names the server; `syncing(with:)` opens both with the sync's
        // bookkeeping (`SyncCursor`) in their schemas.
        let syncs = try ["phone", "laptop"].map { name in
            try JSONFileStoreConfiguration(name: name, directory: directory.appendingPathComponent(name))
                .syncing(
                    with: PostgresStoreConfiguration(name: "trips", connectionString: connection),
                    deviceName: name, models: [PlannedTrip.self])
        }
        let devices = syncs.map(\.local)
        // The server as an administrator sees it, editing it directly.
        let server = try PostgresDataStore(
            .init(
                name: "trips", schema: Schema([PlannedTrip.self, SyncCursor.self]),
                connectionString: connection))
        if try trips(devices[0]).isEmpty && trips(devices[1]).isEmpty {
            // Offline edits: the phone plans two trips and syncs; then, before the laptop has seen anything,
            // the laptop plans a third, and after a sync both change the same trip: different attributes
            // (both kept) and the same attribute (the later commit on the server wins).
            try edit(
                devices[0], author: "phone",
                {
                    $0.name = "Spring"
                    $0.destination = "Lisbon"
                    $0.nights = 4
                }, key: "spring")
            try edit(
                devices[0], author: "phone",
                {
                    $0.name = "Summer"
                    $0.destination = "Porto"
                    $0.nights = 7
                }, key: "summer")
            try edit(
                devices[1], author: "laptop",
                {
                    $0.name = "Autumn"
                    $0.destination = "Sintra"
                    $0.nights = 2
                }, key: "autumn")
            try edit(
                server, author: "admin",
                {
                    $0.name = "Winter"
                    $0.destination = "Faro"
                    $0.nights = 3
                }, key: "winter")
            for sync in syncs { try sync.sync() }
            try edit(devices[0], author: "phone", { $0.nights = 5 }, key: "spring")
            try edit(devices[1], author: "laptop", { $0.destination = "Lisbon and Cascais" }, key: "spring")
            try edit(devices[0], author: "phone", { $0.nights = 8 }, key: "summer")
            try edit(devices[1], author: "laptop", { $0.nights = 6 }, key: "summer")
        }
        for sync in syncs + syncs {
            let outcome = try sync.sync()
            say(
                "\(sync.device): pushed \(outcome.pushed) transactions, applied \(outcome.pulled) from the server"
                    + (outcome.conflicts > 0 ? ", decided \(outcome.conflicts) conflicts" : "")
                    + (outcome.resynchronised
                        ? " (a token had expired: resynchronised from a full copy)"
                        : ""))
        }
        let views = try devices.map(trips) + [trips(server)]
        guard views.allSatisfy({ $0 == views[2] }) else {
            say("error: the stores disagree: \(views)")
            exit(1)
        }
        say("all three stores hold the same \(views[2].count) trips:")
        for line in views[2] { say("  \(line)") }
    }

    do {
        try run()
    } catch {
        FileHandle.standardError.write(Data("postgres-sync: \(error)\n".utf8))
        exit(1)
    }
#else
    FileHandle.standardError.write(
        Data(
            ("postgres-sync needs the PostgreSQL trait: "
                + "Scripts/with-postgres swift run --traits PostgreSQL postgres-sync --directory DIR\n").utf8)
    )
    exit(69)
#endif
