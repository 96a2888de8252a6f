import DataStoreCore
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
