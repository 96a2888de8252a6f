// sample-trips: the seeds' unread-trips scenario, as real processes sharing one JSON file store.
//
// 1. The app seeds some trips (once per store).
// 2. It starts a second process, the widget (author "widget"), which confirms one accommodation and
//    deletes another.
// 3. The app finds the unread trips through its history token, kept as JSON in a file, and prints them, with
//    the preserved name from the deletion's tombstone.
// 4. It looks again and finds nothing new.
//
// Run it twice with the same `--store` directory: the second run's widget has nothing left to change, and
// the app reports nothing new.

import DataStoreCore
import DataStoreModels
import Foundation
import JSONFileStorage
import SampleTrips

struct Options {
    var directory: URL?
    var role = "app"

    static let usage = """
        usage: sample-trips [--store DIRECTORY]

        Runs the seeds' unread-trips scenario: this process is the app, and it starts a second
        process as the widget. Both open the JSON file store in DIRECTORY/trips; the app keeps its
        history token in DIRECTORY/app-token.json. Without --store, a temporary directory is used
        and removed afterwards.
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
            case "--role":
                // Internal: how the app starts the widget process.
                guard let role = rest.popFirst(), ["app", "widget"].contains(role) else {
                    throw UsageError(message: "--role takes app or widget")
                }
                options.role = role
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

/// One line of the narrative, written straight to standard output so the two processes' lines interleave in
/// the order they happen.
func say(_ actor: String, _ line: String) {
    FileHandle.standardOutput.write(
        Data("[\(actor) \(ProcessInfo.processInfo.processIdentifier)] \(line)\n".utf8))
}

func openContainer(_ directory: URL) throws -> ModelContainer {
    try ModelContainer(
        for: [Trip.self, LivingAccommodation.self],
        configurations: [
            ModelConfiguration(
                JSONFileStoreConfiguration(
                    name: "trips", directory: directory.appendingPathComponent("trips")))
        ])
}

/// Starts this executable again as the widget, and waits for it.
func runWidgetProcess(_ directory: URL) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    if !FileManager.default.isExecutableFile(atPath: process.executableURL!.path) {
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    }
    process.arguments = ["--store", directory.path, "--role", "widget"]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw UsageError(message: "the widget process failed with status \(process.terminationStatus)")
    }
}

func runWidget(_ directory: URL) throws {
    let container = try openContainer(directory)
    let result = try TripsScenario.widgetStep(container)
    try container.close()
    switch (result.confirmed, result.deleted) {
    case (nil, nil):
        say("widget", "nothing to do: the stay is already confirmed and the tent already deleted")
    case (let confirmed, let deleted):
        if let confirmed { say("widget", "confirmed '\(confirmed)'") }
        if let deleted { say("widget", "deleted '\(deleted)'") }
    }
}

func runApp(_ directory: URL) throws {
    let container = try openContainer(directory)
    let tokenFile = directory.appendingPathComponent("app-token.json")
    say("app", "store \(directory.appendingPathComponent("trips").path)")
    let seeded = try TripsScenario.seed(container)
    if seeded > 0 {
        say("app", "seeded \(seeded) trips: \(TripsScenario.plans.map(\.0).joined(separator: ", "))")
        let baseline = TripsScenario.appStep(container, tokenFile: tokenFile)
        say("app", "first look, with no token yet, reads all history (\(baseline.count) trips); token saved")
    } else {
        say("app", "the trips are already there; using the saved token in \(tokenFile.lastPathComponent)")
    }

    say("app", "starting the widget process")
    try runWidgetProcess(directory)

    let unread = TripsScenario.appStep(container, tokenFile: tokenFile)
    if unread.isEmpty {
        say("app", "nothing new since the last look")
    } else {
        say("app", "unread trips: \(unread.joined(separator: ", "))")
        for name in try TripsScenario.deletedPlaceNames(container) {
            say("app", "the widget deleted a stay; its tombstone keeps the name '\(name)'")
        }
    }
    let again = TripsScenario.appStep(container, tokenFile: tokenFile)
    say(
        "app",
        again.isEmpty ? "looked again: nothing new" : "looked again: \(again.count) unread (unexpected)")
    guard again.isEmpty else { throw UsageError(message: "a second look found changes it had already seen") }
    // Everything is saved; closing says so explicitly rather than leaving it to the exit handler.
    try container.close()
}

do {
    let options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
    let fileManager = FileManager.default
    let directory =
        options.directory
        ?? fileManager.temporaryDirectory.appendingPathComponent("sample-trips-\(UUID().uuidString)")
    try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
    if options.role == "widget" {
        try runWidget(directory)
    } else {
        defer { if options.directory == nil { try? fileManager.removeItem(at: directory) } }
        try runApp(directory)
    }
} catch let error as UsageError {
    FileHandle.standardError.write(Data("sample-trips: \(error)\n\n\(Options.usage)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("sample-trips: \(error)\n".utf8))
    exit(1)
}
