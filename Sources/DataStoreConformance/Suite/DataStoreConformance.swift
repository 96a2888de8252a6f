@_spi(DataStoreInternals) public import DataStoreCore
import Foundation
import Synchronization

#if canImport(Testing)
    import Testing
#endif

/// The conformance suite: checks that a `DataStore & HistoryProviding` keeps every implementation
/// requirement. Each check is independent of any test framework: it throws ``ConformanceFailure`` naming the
/// rule, what was expected and what was observed.
///
/// Run every applicable check with one test:
///
/// ```swift
/// @Test(arguments: ConformanceCase.allCases)
/// func conformance(_ check: ConformanceCase) async throws {
///     try await DataStoreConformance.run(check, capabilities: [.durable]) { context in
///         try MyStore(MyStoreConfiguration(name: context.storeName, schema: context.schema, directory: context.directory))
///     }
/// }
/// ```
///
/// The same call works inside an XCTest method looping over `ConformanceCase.allCases`.
public enum DataStoreConformance {
    /// Runs one check against stores made by `makeStore`.
    ///
    /// A check that does not apply to `capabilities`, or that needs something the store does not offer (for
    /// example `HistoryReadCounting`), is *skipped*: under Swift Testing the test case is cancelled, which
    /// reports it as skipped rather than passed; elsewhere the call returns.
    ///
    /// - Parameters:
    ///   - check: The check to run.
    ///   - capabilities: What the store can do.
    ///   - timeLimit: How long the check may take; past it, the check fails as a timeout instead of hanging.
    ///     Five minutes by default: the limit catches a store that blocks or loops, and must not catch a check
    ///     that merely waited for a thread while a parallel test run kept every core busy.
    ///   - makeStore: Opens the store for a context. Called again with the same context to reopen it.
    /// - Throws: ``ConformanceFailure`` when the store breaks the check's rule or times out; errors the
    ///   store throws where none is expected propagate wrapped in a failure too.
    public static func run<Store: HistoryProvidingStore>(
        _ check: ConformanceCase, capabilities: ConformanceCapabilities = [],
        timeLimit: Duration = .seconds(300),
        makeStore: @escaping @Sendable (ConformanceContext) throws -> Store
    ) async throws {
        try await run(
            check, capabilities: capabilities, timeLimit: timeLimit, cancelsTestOnSkip: true,
            makeStore: makeStore)
    }

    /// Runs one check; a skipped check cancels the current Swift Testing test only if `cancelsTestOnSkip`.
    static func run<Store: HistoryProvidingStore>(
        _ check: ConformanceCase, capabilities: ConformanceCapabilities, timeLimit: Duration,
        cancelsTestOnSkip: Bool, makeStore: @escaping @Sendable (ConformanceContext) throws -> Store
    ) async throws {
        guard check.applies(to: capabilities) else {
            if cancelsTestOnSkip {
                try skip(check, reason: "it does not apply to a store with capabilities \(capabilities)")
            }
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "conformance-\(check.rawValue)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let context = ConformanceContext(
            storeName: "conformance",
            schema: check.usesRelationshipFixtures ? ConformanceFolder.schema : ConformanceItem.schema,
            directory: directory)
        do {
            try await runChecked(
                check, capabilities: capabilities, timeLimit: timeLimit, context: context,
                makeStore: makeStore)
        } catch let skipped as ConformanceSkip {
            if cancelsTestOnSkip { try skip(check, reason: skipped.reason) }
        }
    }

    private static func runChecked<Store: HistoryProvidingStore>(
        _ check: ConformanceCase, capabilities: ConformanceCapabilities, timeLimit: Duration,
        context: ConformanceContext, makeStore: @escaping @Sendable (ConformanceContext) throws -> Store
    ) async throws {
        try await withTimeLimit(timeLimit, check: check) {
            let harness = try Harness(
                check: check, context: context, capabilities: capabilities, makeStore: makeStore)
            do {
                try await check.perform(with: harness)
            } catch let failure as ConformanceFailure {
                throw failure
            } catch let skipped as ConformanceSkip {
                throw skipped
            } catch {
                guard let operation = harness.failedOperation else {
                    throw harness.expect.failure(expected: "no error", observed: "threw \(error)")
                }
                // The store threw in one of the check's operations: name it, so that the report does not read as
                // if the rule's comparison had failed.
                throw harness.expect.failure(expected: "\(operation) to succeed", observed: "threw \(error)")
            }
        }
    }

    /// Reports a check as skipped: cancels the current Swift Testing test case (its event stream reports
    /// it as cancelled, which IDEs show as skipped) and, because the 6.3 console prints a cancelled case as
    /// passed, says so on standard error. Elsewhere it does nothing.
    static func skip(_ check: ConformanceCase, reason: String) throws {
        #if canImport(Testing)
            guard Test.current != nil else { return }
            FileHandle.standardError.write(Data("⊘ conformance check '\(check)' skipped: \(reason)\n".utf8))
            try Test.cancel("\(check) skipped: \(reason)")
        #endif
    }

    /// Runs every applicable check and returns the failures, for frameworks without parameterised tests.
    public static func runAll<Store: HistoryProvidingStore>(
        capabilities: ConformanceCapabilities = [], timeLimit: Duration = .seconds(300),
        makeStore: @escaping @Sendable (ConformanceContext) throws -> Store
    ) async -> [ConformanceFailure] {
        var failures: [ConformanceFailure] = []
        for check in ConformanceCase.allCases {
            do {
                try await run(
                    check, capabilities: capabilities, timeLimit: timeLimit, cancelsTestOnSkip: false,
                    makeStore: makeStore)
            } catch let failure as ConformanceFailure {
                failures.append(failure)
            } catch {
                failures.append(
                    ConformanceFailure(
                        check: check, requirement: check.requirement, expected: "the check to run",
                        observed: "setting up failed: \(error)"))
            }
        }
        return failures
    }

    /// Races `body` against a timer. A store that blocks forever leaves its task running, but the suite
    /// reports a timeout naming the check and moves on instead of hanging.
    ///
    /// The timer runs on Dispatch, not on Swift's cooperative pool, so a store that blocks pool threads
    /// cannot starve it.
    static func withTimeLimit(
        _ limit: Duration, check: ConformanceCase, _ body: @escaping @Sendable () async throws -> Void
    ) async throws {
        let race = Race()
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            race.continuation = continuation
            let timeout = DispatchWorkItem {
                race.finish(
                    .failure(
                        ConformanceFailure(
                            check: check, requirement: check.requirement,
                            expected: "the check to finish within \(limit)",
                            observed: "it was still running: the store blocked or looped")))
            }
            let (seconds, attoseconds) = limit.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            race.work = Task.detached {
                // The clock starts when the check does, not when it was queued: a parallel test run (under a
                // sanitizer, on two cores) can keep a check waiting for a thread for minutes before it starts.
                DispatchQueue.global().asyncAfter(
                    deadline: .now() + .nanoseconds(nanoseconds), execute: timeout)
                do {
                    try await body()
                    race.finish(.success(()))
                } catch {
                    race.finish(.failure(error))
                }
                timeout.cancel()
            }
        }
    }
}

/// The shared state of a check and its timer: whichever finishes first resumes the caller, once.
private final class Race: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        var work: Task<Void, Never>?
        var finished = false
    }

    private let state = Lock(State())

    var continuation: CheckedContinuation<Void, any Error>? {
        get { state.withLock { $0.continuation } }
        set { state.withLock { $0.continuation = newValue } }
    }

    var work: Task<Void, Never>? {
        get { state.withLock { $0.work } }
        set { state.withLock { $0.work = newValue } }
    }

    func finish(_ result: Result<Void, any Error>) {
        let (continuation, work) = state.withLock {
            state -> (CheckedContinuation<Void, any Error>?, Task<Void, Never>?) in
            guard !state.finished else { return (nil, nil) }
            state.finished = true
            return (state.continuation, state.work)
        }
        guard let continuation else { return }
        continuation.resume(with: result)
        if case .failure(let error) = result, error is ConformanceFailure { work?.cancel() }
    }
}
