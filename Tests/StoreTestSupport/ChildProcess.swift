@_spi(DataStoreInternals) import DataStoreCore
public import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the executable at `path` with no arguments and waits for it, reaping it with `waitpid` directly;
/// returns its exit status. For commands that start daemons (a server restart): Foundation's `Process`, waiting
/// on such a command, was seen never to notice its end.
public func runToCompletion(_ path: String) -> Int32 {
    var pid: pid_t = 0
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
    defer { free(argv[0]) }
    guard posix_spawn(&pid, path, nil, nil, argv, environ) == 0 else { return -1 }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 {
        // Interrupted: wait again. Reaped by someone else: it has ended.
        if errno != EINTR { return 0 }
    }
    return (status >> 8) & 0xff
}

/// A helper process the tests start, talk to through its standard output, and stop or kill.
public final class ChildProcess: Sendable {
    private let process: Process
    private let collector = OutputCollector()
    /// The helper's standard input, for helpers that take commands (`nil` unless `takesCommands`).
    private let input: FileHandle?

    /// Starts one of the package's executables (by default the `datastore-test-process` helper) with
    /// `arguments`, and `environment` added to this process's environment.
    public init(
        _ arguments: [String], executable: String = "datastore-test-process",
        environment: [String: String] = [:], takesCommands: Bool = false
    ) throws {
        let process = Process()
        process.executableURL = try ChildProcess.executableURL(executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added
            }
        }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.standardError
        if takesCommands {
            let commands = Pipe()
            process.standardInput = commands
            input = commands.fileHandleForWriting
        } else {
            input = nil
        }
        self.process = process
        pipe.fileHandleForReading.readabilityHandler = { [collector] handle in
            let chunk = handle.availableData
            collector.append(chunk)
            if chunk.isEmpty { handle.readabilityHandler = nil }
        }
        try process.run()
    }

    /// The lines the helper printed so far.
    public var output: [String] { collector.lines }

    /// Whether the process ended by a signal (such as SIGKILL) rather than by exiting.
    public var wasKilledBySignal: Bool {
        !process.isRunning && process.terminationReason == .uncaughtSignal
    }

    /// The process identifier.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Sends SIGINT, as Ctrl-C does.
    public func interrupt() {
        kill(process.processIdentifier, SIGINT)
    }

    /// Sends SIGKILL: no cleanup, no flushing, the harshest crash a process can have.
    public func kill9() {
        kill(process.processIdentifier, SIGKILL)
    }

    /// Sends SIGSTOP: the process freezes where it is, holding its connections and locks, until ``resume()``.
    public func suspend() {
        kill(process.processIdentifier, SIGSTOP)
    }

    /// Sends SIGCONT, ending a ``suspend()``.
    public func resume() {
        kill(process.processIdentifier, SIGCONT)
    }

    /// Waits for the process to exit, up to `timeout`; returns its status, or `nil` if it is still running
    /// (then it is killed).
    ///
    /// It blocks the calling thread on purpose: a test waiting on another process should not need a free
    /// thread of Swift's cooperative pool to notice it is done, which on two cores it may not get for seconds.
    @discardableResult
    public func waitForExit(timeout: Duration = .seconds(60)) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now >= deadline {
                kill9()
                process.waitUntilExit()
                return nil
            }
            usleep(2_000)
        }
        process.waitUntilExit()
        // Let the pipe deliver what the process wrote before it exited.
        usleep(20_000)
        return process.terminationStatus
    }

    /// Waits for the process to exit, up to `timeout`, without blocking a thread of Swift's cooperative pool:
    /// the waiting happens on a thread of its own, so tasks the test relies on (an observer, a feed) keep
    /// running however few cores there are. Returns the status, or `nil` (the process is then killed).
    public func exitStatus(within timeout: Duration = .seconds(60)) async -> Int32? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { [self] in
                continuation.resume(returning: waitForExit(timeout: timeout))
            }
        }
    }

    /// Sends one command line and waits for the helper's one-line answer, up to `timeout`; `nil` if none came.
    /// Blocks, like ``waitForExit(timeout:)``. Only for a helper started with `takesCommands`.
    public func request(_ command: String, timeout: Duration = .seconds(30)) -> String? {
        send(command).flatMap { answer(after: $0, timeout: timeout) }
    }

    /// Sends one command line without waiting for its answer, so that several helpers can work on theirs at
    /// once; returns how many lines the helper had printed before (for ``answer(after:timeout:)``), or `nil`
    /// when the helper is gone. Only for a helper started with `takesCommands`.
    public func send(_ command: String) -> Int? {
        let answered = output.count
        // A helper that died has closed its end: the write fails (SIGPIPE is ignored) and no answer comes.
        signal(SIGPIPE, SIG_IGN)
        guard (try? input?.write(contentsOf: Data((command + "\n").utf8))) != nil else { return nil }
        return answered
    }

    /// Waits for the one-line answer to a command ``send(_:)`` sent when the helper had printed `answered`
    /// lines, up to `timeout`; `nil` if none came. Blocks, like ``waitForExit(timeout:)``.
    public func answer(after answered: Int, timeout: Duration = .seconds(30)) -> String? {
        guard waitForLines(answered + 1, timeout: timeout) else { return nil }
        return output[answered]
    }

    /// Closes the helper's standard input, which tells a command-taking helper to exit.
    public func closeInput() {
        try? input?.close()
    }

    /// Waits until the helper has printed at least `count` lines, up to `timeout`.
    /// Blocks, like ``waitForExit(timeout:)``.
    public func waitForLines(_ count: Int, timeout: Duration = .seconds(30)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while output.count < count {
            if ContinuousClock.now >= deadline || !process.isRunning && output.count < count {
                return output.count >= count
            }
            usleep(500)
        }
        return true
    }

    /// A built executable of the package: beside the test bundle in the build directory.
    public static func executableURL(_ name: String) throws -> URL {
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent())
        }
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for directory in candidates {
            var url = directory
            for _ in 0..<4 {
                let candidate = url.appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                url = url.deletingLastPathComponent()
            }
        }
        throw ExecutableNotFound(name: name, searched: candidates.map(\.path))
    }

    struct ExecutableNotFound: Error, CustomStringConvertible {
        var name: String
        var searched: [String]
        var description: String { "\(name) was not found near \(searched)" }
    }
}

/// Splits a child's output into lines as it arrives.
final class OutputCollector: Sendable {
    private struct State {
        var pending = Data()
        var lines: [String] = []
    }

    private let state = Lock(State())

    var lines: [String] { state.withLock { $0.lines } }

    func append(_ chunk: Data) {
        state.withLock { state in
            state.pending.append(chunk)
            while let newline = state.pending.firstIndex(of: UInt8(ascii: "\n")) {
                state.lines.append(
                    String(decoding: state.pending[state.pending.startIndex..<newline], as: UTF8.self))
                state.pending.removeSubrange(state.pending.startIndex...newline)
            }
        }
    }
}

/// The identifier of a process that has exited, for tests of what dead processes leave behind.
public func deadProcessIdentifier() throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "exit 0"]
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
}

/// The value of `task`, or `nil` if it takes longer than `limit` (then the task is cancelled): so a test that
/// waits for another process's commit fails in bounded time instead of hanging.
public func value<T: Sendable>(of task: Task<T, any Error>, within limit: Duration) async throws -> T? {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await task.value }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        let first = try await group.next() ?? nil
        group.cancelAll()
        task.cancel()
        return first
    }
}
