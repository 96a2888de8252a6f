// datastore-benchmarks: every backend measured against a naive baseline and against SQLite, in the same run.
//
//   swift run -c release --package-path Benchmarks datastore-benchmarks [--quick] [--filter NAME]
//
// Each figure is a ratio against a baseline measured in the same run, pair by pair (A B A B), as medians with
// min and max. Every scenario first checks that the candidate and the baseline give the same answer.

import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--child-saves", arguments.count == 4, let count = Int(arguments[2]) {
    try JSONSaveScenario.childSaves(directory: arguments[1], count: count, label: arguments[3])
    exit(0)
}

if arguments.first == "--child-commits", arguments.count == 4, let count = Int(arguments[3]) {
    try ObservationScenario.childCommits(backend: arguments[1], target: arguments[2], count: count)
    exit(0)
}

/// The scenarios that run in a process of their own (see `FreshProcess`).
let peerScenarios: [(String, (Report, Sizes) throws -> Void)] = [
    ("peers_load", PeerScenario.load), ("peers_create", PeerScenario.create),
]
if arguments.first == FreshProcess.flag, arguments.count >= 3,
    let scenario = peerScenarios.first(where: { $0.0 == arguments[1] })?.1
{
    do {
        try FreshProcess.child(
            scenario, quick: arguments.dropFirst(3).contains("--quick"), results: arguments[2])
    } catch {
        FileHandle.standardError.write(Data("datastore-benchmarks: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}

var quick = false
var filter: String?
var rest = arguments[...]
while let argument = rest.popFirst() {
    switch argument {
    case "--quick": quick = true
    case "--filter": filter = rest.popFirst()
    case "-h", "--help":
        out(
            "usage: datastore-benchmarks [--quick] [--filter NAME]\nscenarios: history_tail, json_save, sqlite, ts, open, retained, memory, index, relationships, changesets, checkpoint, postgres, observation, allocations, previous_values, sync, peers_load, peers_create (peers: both)"
        )
        exit(0)
    default:
        FileHandle.standardError.write(Data("datastore-benchmarks: unknown argument '\(argument)'\n".utf8))
        exit(2)
    }
}

let sizes = quick ? Sizes.quick : Sizes.full
let report = Report(quick: quick)
let scenarios: [(String, (Report, Sizes) throws -> Void)] =
    [
        ("history_tail", HistoryTailScenario.run), ("json_save", JSONSaveScenario.run),
        ("sqlite", SQLiteScenario.run),
        ("ts", TimeSeriesScenario.run), ("open", OpenScenario.run),
        ("retained", RetainedHistoryScenario.run), ("memory", MemoryScenario.run),
        ("index", IndexScenario.run), ("relationships", RelationshipScenario.run),
        ("changesets", ChangeSetScenario.run), ("checkpoint", CheckpointStallScenario.run),
        ("postgres", PostgresScenario.run), ("observation", ObservationScenario.run),
        ("allocations", AllocationScenario.run), ("previous_values", PreviousValuesScenario.run),
        ("sync", SyncBenchmarkScenario.run),
    ] + peerScenarios
out(
    "datastore-benchmarks \(quick ? "--quick" : "(full run)") on \(ProcessInfo.processInfo.activeProcessorCount) cores"
)
let clock = ContinuousClock()
let started = clock.now
do {
    var ranOne = false
    for (name, run) in scenarios where filter.map({ name.contains($0) }) ?? true {
        out("\n== \(name)")
        // A peer scenario after another scenario runs in a process of its own; the first runs here, in a
        // process as fresh (and `Scripts/count-instructions` can count it).
        if ranOne, peerScenarios.contains(where: { $0.0 == name }) {
            try FreshProcess.run(name, quick: quick, into: report)
        } else {
            try run(report, sizes)
        }
        ranOne = true
    }
} catch {
    FileHandle.standardError.write(Data("datastore-benchmarks: \(error)\n".utf8))
    exit(1)
}
report.printTable()
out("\nfinished in \(clock.now - started)")
if report.rows.isEmpty {
    FileHandle.standardError.write(Data("datastore-benchmarks: no scenario matched\n".utf8))
    exit(1)
}
