@_spi(DataStoreInternals) import DataStoreCore
import Foundation

/// `historyUpdates(after:)`, for stores declaring `.historyUpdates`.
enum ObservationChecks {
    /// The store as `HistoryObserving`, or a failure if it declares the capability without conforming.
    static func observing<S>(_ h: Harness<S>) throws -> any HistoryObserving {
        guard let observing = h.store as? any HistoryObserving else {
            throw h.expect.failure(
                expected: "a store declaring .historyUpdates to conform to HistoryObserving",
                observed: "\(S.self) does not")
        }
        return observing
    }

    /// Subscribes after `token`, runs `thenSave`, and reads until the store's newest transaction arrives.
    ///
    /// Reading up to a known last transaction, rather than a count, means a sequence that skips anything
    /// ends early with a visible gap instead of waiting forever.
    static func read<Observer: HistoryObserving>(
        _ observer: Observer, after token: Any?, thenSave: () throws -> Void, newest: () throws -> Int64?
    ) async throws -> [Int64] {
        let stream = observer.historyUpdates(after: token as? Observer.HistoryType.Token)
        try thenSave()
        guard let last = try newest() else { return [] }
        var received: [Int64] = []
        for try await transaction in stream {
            received.append(transaction.transactionIdentifier)
            if transaction.transactionIdentifier == last { break }
        }
        return received
    }

    static func historyUpdatesDeliverCommitsInOrder<S>(_ h: Harness<S>) async throws {
        let observer = try observing(h)
        let tokens = try h.saveItems(["a", "b", "c"])
        let received = try await read(
            observer, after: tokens[0], thenSave: { _ = try h.saveItems(["d", "e"]) },
            newest: { try h.history().last?.transactionIdentifier })
        let expected = try h.history(HistoryDescriptor(predicate: HistoryPredicates.after(tokens[0])))
            .map(\.transactionIdentifier)
        try h.expect.equal(
            received, expected, "the transactions delivered after the first token: two retained, two new")
    }

    static func commitSignalsFollowEveryCommit<S>(_ h: Harness<S>) async throws {
        let observer = try observing(h)
        let signals = observer.commitSignals()
        let received = SignalCount()
        let relay = Task {
            for await _ in signals { received.add() }
        }
        defer { relay.cancel() }
        for round in 1...3 {
            let before = received.value
            _ = try h.saveItems(["signalled-\(round)"])
            // Liveness, not speed: a store that signals at all does so in milliseconds.
            let deadline = ContinuousClock.now.advanced(by: .seconds(10))
            while received.value == before, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            try h.expect.that(
                received.value > before, "a signal within 10 s of commit \(round) of 3",
                observed: "none (signals before the commit: \(before))")
        }
    }

    static func historyUpdatesRejectExpiredTokens<S>(_ h: Harness<S>) async throws {
        let observer = try observing(h)
        let tokens = try h.saveItems(["a", "b", "c"])
        try h.store.deleteHistory(HistoryDescriptor(predicate: HistoryPredicates.through(tokens[1])))
        do {
            let received = try await read(
                observer, after: tokens[0], thenSave: {},
                newest: { try h.history().last?.transactionIdentifier })
            throw h.expect.failure(expected: "historyTokenExpired", observed: "delivered \(received)")
        } catch DataStoreError.historyTokenExpired {
            return
        } catch let failure as ConformanceFailure {
            throw failure
        } catch {
            throw h.expect.failure(expected: "historyTokenExpired", observed: "threw \(error)")
        }
    }
}

/// How many signals a relay received.
private final class SignalCount: Sendable {
    private let count = Lock(0)
    var value: Int { count.withLock { $0 } }
    func add() { count.withLock { $0 += 1 } }
}
