import DataStoreKit
package import Foundation

/// Runs a workload on a store while recording its file operations, then, after every recorded operation,
/// builds the disk states a power loss could leave there (see ``SimulatedDisk``) and has a check judge each one.
///
/// The workload marks each save (or migration, or repair) it saw succeed with `acknowledge(label)`; the check
/// gets the labels acknowledged before the crash point, and answers `nil` when the state is acceptable or a
/// description of what is wrong. Shared by the file stores' power-loss tests.
package enum PowerLossHarness {
    /// What one run checked and found.
    package struct Outcome: CustomStringConvertible {
        /// The recorded operations after which states were built.
        package var crashPoints = 0
        /// The states built and checked.
        package var statesChecked = 0
        /// The labels the workload acknowledged.
        package var acknowledged: Set<String> = []
        /// What the check reported, with the operation it followed.
        package var violations: [String] = []

        /// Nothing checked yet.
        package init() {}

        /// The one-line summary the tests print for Docs/Proof.md.
        package var description: String {
            "\(crashPoints) crash points, \(statesChecked) states, \(acknowledged.count) acknowledged, "
                + "\(violations.count) violations"
        }
    }

    /// Whether `DATASTORE_POWER_LOSS=full` asks for the long run (`.ci/run` sets it).
    package static var isFull: Bool { ProcessInfo.processInfo.environment["DATASTORE_POWER_LOSS"] == "full" }

    /// Runs `prepare` (it creates or opens the store under `root`; its files at that point count as durable),
    /// records `workload` on what it returned, and checks the states.
    ///
    /// - Parameters:
    ///   - root: The store's directory. Every file under it is tracked; its subdirectories must exist once
    ///     `prepare` returns.
    ///   - scratch: Where each state is written for the check to open; it must not lie under `root`.
    ///   - randomSubsets: How many random choices of unsynchronized pages and name changes to add per point.
    package static func run<Prepared>(
        root: URL, scratch: URL, randomSubsets: Int,
        prepare: () throws -> Prepared,
        workload: (Prepared, _ acknowledge: @escaping @Sendable (String) -> Void) throws -> Void,
        check: (_ state: URL, _ acknowledged: Set<String>) -> String?
    ) throws -> Outcome {
        let recording = IORecording()
        var subdirectories: Set<String> = []
        var initial: [String: Data] = [:]
        do {
            let prepared = try prepare()
            try capture(root, relative: "", files: &initial, directories: &subdirectories)
            FaultInjection.record(pathContaining: root.path, into: recording)
            defer { FaultInjection.stopRecording(recording) }
            try workload(prepared) { recording.append(.note("ack " + $0)) }
        }
        var outcome = Outcome()
        var disk = SimulatedDisk(directory: root.path, subdirectories: subdirectories, contents: initial)
        var generator = SystemRandomNumberGenerator()
        // A crash after each operation, and one after the workload's last acknowledgement.
        let events = recording.events
        for (position, event) in events.enumerated() {
            if case .note(let note) = event, note.hasPrefix("ack ") {
                outcome.acknowledged.insert(String(note.dropFirst(4)))
                guard position == events.count - 1 else { continue }
            } else {
                disk.apply(event)
            }
            outcome.crashPoints += 1
            for state in disk.crashStates(randomSubsets: randomSubsets, using: &generator) {
                outcome.statesChecked += 1
                let violation: String?
                do {
                    try write(state, subdirectories: subdirectories, to: scratch)
                    violation = check(scratch, outcome.acknowledged)
                } catch {
                    violation = "could not write the state: \(error)"
                }
                if let violation {
                    outcome.violations.append(
                        "after operation \(outcome.crashPoints) (\(event)): \(violation)")
                }
            }
        }
        try? FileManager.default.removeItem(at: scratch)
        return outcome
    }

    /// Reads every file under `url` into `files` and lists its subdirectories, by path relative to the root.
    private static func capture(
        _ url: URL, relative: String, files: inout [String: Data], directories: inout Set<String>
    ) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
            let child = url.appendingPathComponent(name)
            let path = relative.isEmpty ? name : relative + "/" + name
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: child.path, isDirectory: &isDirectory)
            if isDirectory.boolValue {
                directories.insert(path)
                try capture(child, relative: path, files: &files, directories: &directories)
            } else {
                files[path] = try Data(contentsOf: child)
            }
        }
    }

    /// Replaces `directory` with one holding `state`.
    private static func write(_ state: [String: Data], subdirectories: Set<String>, to directory: URL) throws
    {
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in subdirectories.sorted() {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        for (name, data) in state { try data.write(to: directory.appendingPathComponent(name)) }
    }
}
