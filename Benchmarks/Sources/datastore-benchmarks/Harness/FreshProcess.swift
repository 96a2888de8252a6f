import Foundation

/// Runs a scenario in a process of its own, started for it.
///
/// The peer scenarios compare this package's stores with SQLite and GRDB, whose loads allocate a string per
/// column per row. At the end of a full run, after scenarios that built histories of a million changes, the
/// process's heap made those allocations several times slower than in a fresh process (raw SQLite's load of
/// Northwind's orders: 46 ms against 12 ms), which flattered the stores, whose models share the stored strings.
/// In a fresh process, each library meets the allocator as an app's first fetch would. (A peer scenario that
/// is the first of a run needs no child: the run's own process is fresh.)
enum FreshProcess {
    /// The argument that makes the binary run one scenario and write its rows as JSON to a file.
    static let flag = "--child-scenario"

    /// Runs `name` in a child process (its output goes to this process's standard output as it comes) and
    /// records its figures in `report`.
    static func run(_ name: String, quick: Bool, into report: Report) throws {
        let results = FileManager.default.temporaryDirectory.appendingPathComponent(
            "datastore-benchmarks-\(name)-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: results) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = [flag, name, results.path] + (quick ? ["--quick"] : [])
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ChildScenarioError(name: name, status: process.terminationStatus)
        }
        report.adopt(try JSONDecoder().decode([Report.Row].self, from: Data(contentsOf: results)))
    }

    /// The child's side: runs `scenario` and writes what it measured to `results`.
    static func child(
        _ scenario: (Report, Sizes) throws -> Void, quick: Bool, results: String
    ) throws {
        let report = Report(quick: quick)
        try scenario(report, quick ? .quick : .full)
        try JSONEncoder().encode(report.rows).write(to: URL(fileURLWithPath: results))
    }
}

/// A scenario's own process failed (its error went to standard error).
struct ChildScenarioError: Error, CustomStringConvertible {
    var name: String
    var status: Int32
    var description: String { "\(name): its process exited with status \(status)" }
}
