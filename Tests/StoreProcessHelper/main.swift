// datastore-test-process: the other processes of the multi-process tests. Each mode opens a store in a
// directory, does one job and reports on standard output, one line per event, flushed at once.

import DataStoreCore
import Foundation
import JSONFileStorage
import SampleTrips
import StoreTestSupport

func report(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("datastore-test-process: \(message)\n".utf8))
    exit(1)
}

func openEntryStore(backend: String, directory: String) throws -> JSONFileDataStore {
    guard backend == "jsonfile" else { fail("unknown backend \(backend)") }
    return try JSONFileDataStore(
        .init(name: "entries", schema: Entry.schema, directory: URL(fileURLWithPath: directory)))
}

func tripsContainer(_ directory: String) throws -> ModelContainer {
    try ModelContainer(
        for: [Trip.self, LivingAccommodation.self],
        configurations: [
            ModelConfiguration(
                JSONFileStoreConfiguration(name: "trips", directory: URL(fileURLWithPath: directory)))
        ])
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "write-loop":
        // write-loop BACKEND DIR WRITER [COUNT]: saves of three entries each; "ACK <sequence>" after each.
        guard arguments.count >= 4 else { fail("usage: write-loop BACKEND DIR WRITER [COUNT]") }
        let store = try openEntryStore(backend: arguments[1], directory: arguments[2])
        let writer = arguments[3]
        // Keys carry the process identifier, so every run of a loop writes new models.
        let keyPrefix = "\(writer)-\(ProcessInfo.processInfo.processIdentifier)"
        let count = arguments.count > 4 ? Int(arguments[4]) ?? 0 : Int.max
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
    default:
        fail("unknown mode \(arguments.first ?? "(none)")")
    }
} catch {
    fail("\(error)")
}
