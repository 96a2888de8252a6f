// sensor-log: the time-series store at work.
//
// 1. Ingests two days of simulated readings from several sensors, one commit per batch, with a progress line.
// 2. Queries an hour's range: only the segments overlapping it are opened.
// 3. A consumer reads history and saves its token.
// 4. Retention (keep one day) removes whole old segments.
// 5. The consumer resumes from its old token, gets historyTokenExpired, and recovers by starting over.

import DataStoreCore
import DataStoreModels
import Foundation
import TimeSeriesStorage

/// One sensor reading.
struct Reading: PersistentModel {
    static let schemaAttributes: [ModelAttribute<Reading>] = [
        .attribute("sensor", \.sensor), .attribute("celsius", \.celsius),
        .attribute("timestamp", \.timestamp),
    ]
    var persistentModelID = PersistentIdentifier()
    var sensor = ""
    var celsius = 0.0
    var timestamp = Date(timeIntervalSinceReferenceDate: 0)
    init() {}
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func configuration(
    _ directory: URL, retention: TimeSeriesStoreConfiguration.RetentionPolicy = .keepEverything
)
    -> TimeSeriesStoreConfiguration
{
    TimeSeriesStoreConfiguration(
        name: "sensors", schema: Schema([Reading.self]), directory: directory, segmentSpan: 3_600,
        acceptedLateness: 600, retention: retention, isDurable: false)
}

func run(directory: URL, sensors: Int, hours: Int) throws {
    let store = try TimeSeriesDataStore(configuration(directory))
    let container = try ModelContainer(
        for: [Reading.self], configurations: [ModelConfiguration(store: store)])
    // Commits whatever is still open and closes the container on every way out of this function.
    defer { try? container.close() }
    let context = ModelContext(container)
    context.author = "ingest"

    // 1. Ingest: one reading per sensor per minute, committed per simulated ten minutes.
    let start = Date().addingTimeInterval(-Double(hours) * 3_600)
    let minutes = hours * 60
    var written = 0
    for minute in 0..<minutes {
        for sensor in 0..<sensors {
            var reading = Reading()
            reading.sensor = "sensor-\(sensor)"
            reading.celsius = 20 + 5 * sin(Double(minute) / 180 + Double(sensor))
            reading.timestamp = start.addingTimeInterval(Double(minute * 60 + sensor))
            context.insert(reading)
        }
        if minute % 10 == 9 || minute == minutes - 1 {
            try context.save()
            written = (minute + 1) * sensors
            if minute % 240 == 239 || minute == minutes - 1 {
                say("ingest: \(written) readings, \(try store.segmentFiles().count) segments")
            }
        }
    }

    // 2. One hour's range, a day ago.
    let from = Date().addingTimeInterval(-25 * 3_600)
    let to = from.addingTimeInterval(3_600)
    let before = store.statistics.segmentsOpened
    let hour = try context.fetch(
        FetchDescriptor<Reading>(predicate: #Predicate { $0.timestamp >= from && $0.timestamp < to }))
    let mean = hour.map(\.celsius).reduce(0, +) / Double(max(hour.count, 1))
    say(
        "range: \(hour.count) readings between \(from) and \(to), mean \(String(format: "%.2f", mean)) °C; "
            + "opened \(store.statistics.segmentsOpened - before) of \(try store.segmentFiles().count) segments"
    )

    // 3. A consumer reads the first transactions and keeps its place.
    let first = try store.fetchHistory(HistoryDescriptor(fetchLimit: 3))
    guard let consumerToken = first.last?.token else { throw ExampleError(message: "no history was written") }
    say("consumer: read \(first.count) transactions, saved token at sequence \(consumerToken.sequence)")

    // 4. Retention: keep one day.
    let segmentsBefore = try store.segmentFiles()
    let retained = try TimeSeriesDataStore(configuration(directory, retention: .init(maximumAge: 86_400)))
    try retained.applyRetention()
    let segmentsAfter = try retained.segmentFiles()
    say(
        "retention: keep 24 h; \(segmentsBefore.count - segmentsAfter.count) old segments removed, "
            + "\(segmentsAfter.count) left (oldest now \(segmentsAfter.first ?? "none"))")
    for removed in Set(segmentsBefore).subtracting(segmentsAfter).sorted().prefix(1) {
        let path = directory.appendingPathComponent("segments").appendingPathComponent(removed).path
        say("retention: \(removed) exists on disk: \(FileManager.default.fileExists(atPath: path))")
    }

    // 5. The consumer comes back.
    do {
        _ = try retained.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > consumerToken }))
        throw ExampleError(message: "the old token still worked after retention")
    } catch let error as DataStoreError where error.code == .historyTokenExpired {
        let sequence = error.tokenSequence ?? 0
        let oldest = error.oldestValidSequence ?? 0
        say(
            "consumer: token at \(sequence) expired in '\(error.store ?? "?")' (history now starts after \(oldest)); "
                + "starting over")
    }
    let everything = try retained.fetchHistory(HistoryDescriptor())
    let samples = everything.reduce(0) { $0 + $1.changes.count }
    say("consumer: started over and read \(everything.count) transactions (\(samples) readings)")
}

struct ExampleError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

let usage = """
    usage: sensor-log [--store DIRECTORY] [--sensors N] [--hours N]

    Ingests N hours (default 48) of readings from N sensors (default 8) into a time-series store in
    DIRECTORY (default: a temporary directory, removed afterwards), then queries, applies retention
    and resumes a consumer.
    """

var directory: URL?
var sensors = 8
var hours = 48
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--store": directory = arguments.popFirst().map { URL(fileURLWithPath: $0, isDirectory: true) }
    case "--sensors": sensors = arguments.popFirst().flatMap(Int.init) ?? 0
    case "--hours": hours = arguments.popFirst().flatMap(Int.init) ?? 0
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        FileHandle.standardError.write(Data("sensor-log: unknown argument '\(argument)'\n\n\(usage)\n".utf8))
        exit(2)
    }
}
guard sensors > 0, hours >= 26 else {
    FileHandle.standardError.write(
        Data("sensor-log: --sensors must be positive and --hours at least 26\n".utf8))
    exit(2)
}
let target =
    directory
    ?? FileManager.default.temporaryDirectory.appendingPathComponent("sensor-log-\(UUID().uuidString)")
do {
    try run(directory: target, sensors: sensors, hours: hours)
    if directory == nil { try? FileManager.default.removeItem(at: target) }
} catch {
    if directory == nil { try? FileManager.default.removeItem(at: target) }
    FileHandle.standardError.write(Data("sensor-log: \(error)\n".utf8))
    exit(1)
}
