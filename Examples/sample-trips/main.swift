// sample-trips: the seeds' unread-trips flow, narrated.
//
// The app seeds trips; the widget (author "widget") confirms one accommodation and deletes another; the app
// then finds the unread trips through its saved token and reads the deleted accommodation's tombstone; a
// second look finds nothing new. Until the JSON file store lands, app and widget share one in-memory store
// inside this process; the token is persisted as JSON in a file, as the seeds keep it in UserDefaults.

import DataStoreCore
import Foundation
import InMemoryStorage
import SampleTrips

struct Options {
    var directory: URL?

    static let usage = """
        usage: sample-trips [--store DIRECTORY]

        Runs the seeds' unread-trips scenario. The app's history token is kept as JSON in
        DIRECTORY/token.json (default: a temporary directory, removed afterwards).
        """

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--store":
                guard let path = rest.popFirst() else {
                    throw UsageError(message: "--store needs a directory")
                }
                options.directory = URL(fileURLWithPath: path, isDirectory: true)
            case "-h", "--help":
                print(usage)
                exit(0)
            default:
                throw UsageError(message: "unknown argument '\(argument)'")
            }
        }
        return options
    }
}

struct UsageError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

func say(_ actor: String, _ line: String) {
    print("[\(actor)] \(line)")
}

func run(_ options: Options) throws {
    let fileManager = FileManager.default
    let directory =
        options.directory
        ?? fileManager.temporaryDirectory.appendingPathComponent("sample-trips-\(UUID().uuidString)")
    try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { if options.directory == nil { try? fileManager.removeItem(at: directory) } }

    let container = try ModelContainer(
        for: [Trip.self, LivingAccommodation.self],
        configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "trips"))])
    let reader = TripHistoryReader(
        modelContainer: container, tokenFile: directory.appendingPathComponent("token.json"))
    say("app", "store 'trips' (in memory); token file \(reader.tokenFile.path)")

    // 1. The app seeds trips, each with an accommodation.
    let app = ModelContext(container)
    app.author = TransactionAuthor.app
    let plans = [("Lisbon", "Hotel Sol"), ("Oslo", "Cabin Pine"), ("Merzouga", "Tent Dune")]
    var stays: [String: LivingAccommodation] = [:]
    for (index, (destination, place)) in plans.enumerated() {
        let stay = LivingAccommodation(address: "\(index + 1) Main St", placeName: place)
        app.insert(stay)
        stays[destination] = stay
        let trip = Trip(
            name: "Trip to \(destination)", destination: destination, startDay: 9_000 + index * 10, days: 5)
        app.insert(trip)
        try app.save()  // saves the stay and the trip, so the trip can reference the stay's identifier
        trip.livingAccommodation = stay.persistentModelID
        try app.save()
    }
    say("app", "seeded \(plans.count) trips: \(plans.map(\.0).joined(separator: ", "))")
    let baseline = reader.findUnreadTrips()
    say("app", "first look, with no token yet, reads all history: \(baseline.count) trips; token saved")

    // 2. The widget confirms Lisbon's hotel and cancels the Merzouga tent.
    let widget = ModelContext(container)
    widget.author = TransactionAuthor.widget
    guard let sol = try widget.model(for: stays["Lisbon"]!.persistentModelID) as? LivingAccommodation,
        let dune = try widget.model(for: stays["Merzouga"]!.persistentModelID) as? LivingAccommodation
    else { throw UsageError(message: "the seeded accommodations are missing") }
    sol.isConfirmed = true
    widget.delete(dune)
    try widget.save()
    say("widget", "confirmed '\(sol.placeName)' and deleted '\(dune.placeName)'")

    // 3. The app becomes active and looks for unread trips.
    let unread = reader.findUnreadTrips()
    say("app", "unread trips: \(unread.map(\.name).sorted().joined(separator: ", "))")
    let widgetAuthor = TransactionAuthor.widget
    for transaction in try app.fetchHistory(
        HistoryDescriptor(predicate: #Predicate { $0.author == widgetAuthor }))
    {
        for change in transaction.changes {
            if case .delete(let deletion as HistoryDelete<LivingAccommodation>) = change {
                let name = deletion.tombstone[\LivingAccommodation.placeName] ?? "?"
                let address =
                    deletion.tombstone[\LivingAccommodation.address].map { "'\($0)'" } ?? "not preserved"
                say("app", "tombstone of the deleted stay: placeName '\(name)', address \(address)")
            }
        }
    }

    // 4. Looking again finds nothing new.
    let again = reader.findUnreadTrips()
    say("app", again.isEmpty ? "second look: nothing new" : "second look: \(again.count) unread (unexpected)")
    guard unread.map(\.destination) == ["Lisbon"], again.isEmpty else {
        throw UsageError(message: "the history did not show what the widget did")
    }
}

do {
    try run(try Options.parse(Array(CommandLine.arguments.dropFirst())))
} catch let error as UsageError {
    FileHandle.standardError.write(Data("sample-trips: \(error)\n\n\(Options.usage)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("sample-trips: \(error)\n".utf8))
    exit(1)
}
