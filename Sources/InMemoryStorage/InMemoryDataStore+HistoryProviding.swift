@_spi(DataStoreInternals) public import DataStoreCore
import DataStoreKit
import Synchronization

extension InMemoryDataStore: HistoryProvidingStore {
    /// The store's transaction type.
    public typealias HistoryType = InMemoryHistoryTransaction

    /// Fetches history, seeking by binary search on the predicate's token and timestamp bounds.
    public func fetchHistory(_ descriptor: HistoryDescriptor<InMemoryHistoryTransaction>) throws
        -> [InMemoryHistoryTransaction]
    {
        // Copy the log under the lock (copy-on-write, O(1)) and evaluate predicates outside it.
        let (historyQuery, log) = state.withLock { state in (query(for: state), state.history) }
        var statistics = HistoryQueryStatistics()
        defer { state.withLock { $0.statistics.add(statistics) } }
        return try historyQuery.run(descriptor, over: log, statistics: &statistics)
    }

    /// Deletes the matching transactions; tokens older than the newest deleted one expire.
    public func deleteHistory(_ descriptor: HistoryDescriptor<InMemoryHistoryTransaction>) throws {
        try state.withLock { state throws(DataStoreError) in
            var statistics = HistoryQueryStatistics()
            var everything = descriptor
            everything.fetchLimit = nil
            let doomed = try query(for: state).run(everything, over: state.history, statistics: &statistics)
            guard let newest = doomed.last?.token.sequence else { return }
            let sequences = Set(doomed.map(\.token.sequence))
            state.history.removeAll { sequences.contains($0.token.sequence) }
            state.oldestValidSequence = max(state.oldestValidSequence, newest)
            state.statistics.add(statistics)
        }
    }

    private func query(for state: State) -> HistoryQuery<InMemoryHistoryTransaction> {
        HistoryQuery(
            storeIdentifier: identifier, epoch: state.epoch, oldestValidSequence: state.oldestValidSequence,
            latestSequence: state.latestSequence)
    }
}

extension InMemoryDataStore: HistoryReadCounting {
    /// The history transactions this instance examined since it was opened.
    public var historyTransactionsExamined: Int { statistics.examinedTransactions }
}
