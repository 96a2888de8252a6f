/// A bounded cache of a store's newest decoded transactions, in commit order, with no gaps: every transaction
/// the store held from the first cached one to the last when they were remembered is here. (A transaction
/// deleted since may still be cached; the store decides what is retained.) Stores whose history lives in
/// files or a database answer the tail, which change feeds and syncs read after their token, from here
/// instead of reading and decoding it again.
///
/// Holds about ``changeLimit`` changes: the oldest transactions are dropped in batches beyond that.
package struct RecentHistory<Transaction: HistoryTransaction>: Sendable
where Transaction.Token: StoreHistoryToken {
    /// The cached transactions, oldest first, without gaps (see the type's documentation).
    package private(set) var transactions: [Transaction] = []
    /// The bound, in changes; 0 caches nothing.
    package let changeLimit: Int
    private var changeCount = 0

    /// An empty cache that keeps about `changeLimit` changes.
    package init(changeLimit: Int) {
        self.changeLimit = max(changeLimit, 0)
    }

    /// The sequences the cache covers: every transaction in this range that the store held when it was
    /// remembered is cached. `nil` when empty.
    package var range: ClosedRange<Int64>? {
        guard let first = transactions.first, let last = transactions.last else { return nil }
        return first.token.sequence...last.token.sequence
    }

    /// Remembers `newer`, which must be every transaction of the store after sequence `after` up to the last
    /// of them, in commit order. When the cache ends before `after`, what lies between is unknown, so the
    /// cache starts again from `newer`; transactions it holds already are skipped.
    package mutating func remember(_ newer: some Sequence<Transaction>, after: Int64) {
        guard changeLimit > 0 else { return }
        if let last = transactions.last?.token.sequence, last < after {
            removeAll()
        }
        let cachedThrough = transactions.last?.token.sequence ?? .min
        for transaction in newer where transaction.token.sequence > cachedThrough {
            transactions.append(transaction)
            changeCount += transaction.changes.count
        }
        guard changeCount > changeLimit * 3 / 2 else { return }
        var dropped = 0
        while transactions.count - dropped > 1 && changeCount > changeLimit {
            changeCount -= transactions[dropped].changes.count
            dropped += 1
        }
        transactions.removeFirst(dropped)
    }

    /// Empties the cache (the store's history was replaced, or its epoch changed).
    package mutating func removeAll() {
        transactions.removeAll(keepingCapacity: true)
        changeCount = 0
    }

    /// The cached transactions after `sequence`, when the cache holds all of them (it starts at or before
    /// `sequence + 1`); otherwise `nil`.
    package func suffix(after sequence: Int64) -> ArraySlice<Transaction>? {
        guard let first = transactions.first, first.token.sequence <= sequence &+ 1 else { return nil }
        return transactions[transactions.partitioningIndex { $0.token.sequence > sequence }...]
    }

    /// The cached transaction with `sequence`, found by binary search.
    package func transaction(_ sequence: Int64) -> Transaction? {
        let index = transactions.partitioningIndex { $0.token.sequence >= sequence }
        guard index < transactions.endIndex, transactions[index].token.sequence == sequence else {
            return nil
        }
        return transactions[index]
    }
}
