import DataStoreCore

/// The transactions of other authors after a position, per store, read once: an undo manager checks each step
/// against everything committed after it, and reading that anew for each of a thousand steps would read the
/// same history a thousand times. Transactions the manager recorded or wrote itself are left out as they are
/// read (they are already known when read: a save records them before anything reads further).
final class ForeignHistory {
    private struct Cache {
        /// The cached range: transactions after `lower` through `upper` were read.
        var lower: CompositeHistoryToken.Component
        var upper: CompositeHistoryToken.Component
        /// The other authors' transactions in that range, in commit order.
        var transactions: [StoreHistoryEntry]
    }

    private var caches: [String: Cache] = [:]

    /// The transactions after `position` in `store` not in `own`, in commit order.
    func transactions(
        after position: CompositeHistoryToken.Component, in store: String, own: Set<SavedTransaction>,
        container: ModelContainer
    ) throws -> [StoreHistoryEntry] {
        let connection = try container.connection(named: store)
        func read(
            after lower: CompositeHistoryToken.Component, through upper: CompositeHistoryToken.Component?
        )
            throws -> [StoreHistoryEntry]
        {
            try connection.history(after: lower, through: upper, limit: nil, modelTypes: container.modelTypes)
                .filter {
                    let at = CompositeHistoryToken.Component(
                        epoch: $0.epoch, sequence: $0.transaction.storeSequence)
                    return !own.contains(SavedTransaction(store: store, position: at))
                }
        }
        guard var cache = caches[store], cache.lower.epoch == position.epoch else {
            let newest = try connection.newestPosition() ?? position
            let read = try read(after: position, through: newest)
            caches[store] = Cache(lower: position, upper: newest, transactions: read)
            return read
        }
        if position.sequence < cache.lower.sequence {
            cache.transactions = try read(after: position, through: cache.lower) + cache.transactions
            cache.lower = position
        }
        let newest = try connection.newestPosition()
        if newest?.epoch != cache.upper.epoch {
            // Erased (and perhaps written since): reading after a position of the old epoch throws the store's
            // expiry error.
            _ = try read(after: position, through: nil)
        } else if let newest, newest.sequence > cache.upper.sequence {
            cache.transactions += try read(after: cache.upper, through: newest)
            cache.upper = newest
        }
        caches[store] = cache
        return cache.transactions.filter { $0.transaction.storeSequence > position.sequence }
    }

    /// Forgets everything read.
    func removeAll() {
        caches = [:]
    }
}
