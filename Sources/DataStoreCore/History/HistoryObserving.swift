import Foundation

/// A store that announces new history as it is committed: the counterpart of Core Data's
/// `NSPersistentStoreRemoteChange`, as an async sequence.
///
/// ```swift
/// for try await transaction in store.historyUpdates(after: savedToken) {
///     handle(transaction)
///     savedToken = transaction.token
/// }
/// ```
///
/// # Implementation requirements
///
/// - The sequence first yields every retained transaction after `token` (all of them when `nil`), then each
///   new transaction as it commits, in commit order, each exactly once, with no gap between the two parts.
/// - A token that `fetchHistory` would reject (expired, another store or epoch) ends the sequence with that
///   error.
/// - Cancelling the consuming task ends the sequence and releases what it holds (observers, file
///   descriptors).
/// - Waiting for commits is pushed by the store's own signal (a directory watch, a database notification, an
///   in-process call), not a timer, wherever the platform offers one: an idle sequence does no work. A
///   polling fallback is allowed where there is no signal; document its interval.
/// - ``commitSignals()`` has a default built on ``historyUpdates(after:)``; a store that can tell "something
///   committed" without reading the transactions should implement it directly.
public protocol HistoryObserving: HistoryProviding {
    /// The transactions after `token`, then every new one as it commits.
    func historyUpdates(after token: HistoryType.Token?) -> AsyncThrowingStream<HistoryType, any Error>

    /// A sequence that yields each time a commit may have happened, by this process or another, from the call
    /// on, until the consuming task is cancelled: what an observer that reads history (or refetches results)
    /// by itself waits on instead of polling.
    ///
    /// # Implementation requirements
    ///
    /// - Every commit after the call returns is followed by a signal. Signals may merge (a burst of commits
    ///   may yield once) and may come without a commit (that only costs the consumer a look).
    /// - A signal carries nothing: the consumer reads what is new itself, so an erased store or an expired
    ///   position surfaces as that read's error.
    /// - It never ends while the consumer listens: a store whose signal source fails yields once and falls
    ///   back to polling rather than going quiet.
    /// - Cancelling the consuming task releases what the sequence holds.
    func commitSignals() -> AsyncStream<Void>
}

extension HistoryObserving {
    /// The default: the transactions ``historyUpdates(after:)`` delivers after the newest one at the call,
    /// each turned into a signal. It reads every transaction, so a store that can signal more cheaply should
    /// implement ``commitSignals()`` itself.
    public func commitSignals() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        // The position is read now, so every commit after this call is after it.
        var newestFirst = HistoryDescriptor<HistoryType>(fetchLimit: 1)
        newestFirst.sortBy = [SortDescriptor(HistoryType.keyPaths.transactionIdentifier, order: .reverse)]
        let newest: HistoryType.Token?
        do {
            newest = try fetchHistory(newestFirst).first?.token
        } catch {
            // The consumer's own read meets the error.
            continuation.yield()
            newest = nil
        }
        let updates = historyUpdates(after: newest)
        let relay = Task {
            do {
                for try await _ in updates { continuation.yield() }
            } catch {
                continuation.yield()
            }
            // The store's sequence ended (an erase, an error): from now on, a look every quarter second.
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(250))
                continuation.yield()
            }
        }
        continuation.onTermination = { _ in relay.cancel() }
        return stream
    }
}
