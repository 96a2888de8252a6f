@_spi(DataStoreInternals) public import DataStoreCore
import DataStoreKit
import Foundation
import Synchronization

extension InMemoryDataStore: HistoryObserving {
    /// The transactions after `token`, then each new one as a save in this process commits it.
    ///
    /// The backlog is read and the observer registered under one lock, so no commit falls between them.
    public func historyUpdates(after token: InMemoryHistoryToken?) -> AsyncThrowingStream<
        InMemoryHistoryTransaction, any Error
    > {
        let (stream, continuation) = AsyncThrowingStream<InMemoryHistoryTransaction, any Error>.makeStream()
        let id = UUID()
        let failure: (any Error)? = state.withLock { state in
            var descriptor = HistoryDescriptor<InMemoryHistoryTransaction>()
            if let token { descriptor.predicate = HistoryPredicates.after(token) }
            var statistics = HistoryQueryStatistics()
            do {
                let backlog = try HistoryQuery<InMemoryHistoryTransaction>(
                    storeIdentifier: identifier, epoch: state.epoch,
                    oldestValidSequence: state.oldestValidSequence,
                    latestSequence: state.latestSequence
                ).run(descriptor, over: state.history, statistics: &statistics)
                for transaction in backlog { continuation.yield(transaction) }
                state.observers[id] = continuation
                return nil
            } catch {
                return error
            }
        }
        if let failure {
            continuation.finish(throwing: failure)
        } else {
            continuation.onTermination = { [weak self] _ in
                _ = self?.state.withLock { $0.observers.removeValue(forKey: id) }
            }
        }
        return stream
    }

    /// Yields after each commit by this instance (the store lives in this process only), and after `erase()`.
    public func commitSignals() -> AsyncStream<Void> {
        commits.subscribe()
    }

    /// The number of live `historyUpdates` sequences, to check that cancelling releases them.
    package var observerCount: Int { state.withLock { $0.observers.count } }
}
