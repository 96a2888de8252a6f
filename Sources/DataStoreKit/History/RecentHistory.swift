package import DataStoreCore

/// A bounded cache of a store's newest decoded transactions, in commit order, with no gaps: every transaction
/// the store held from the first cached one to the last when they were remembered is here. (A transaction
/// deleted since may still be cached; the store decides what is retained.) Stores whose history lives in
/// files or a database answer the tail, which change feeds and syncs read after their token, from here
/// instead of reading and decoding it again.
///
/// Holds about ``changeLimit`` changes: the oldest transactions are dropped in batches beyond that. A transaction
/// with more changes than that is not kept at all (the cache starts again after it): a store checks
/// ``caches(changeCount:)`` before it decodes one only to remember it.
package struct RecentHistory<Transaction: HistoryTransaction>: Sendable
where Transaction.Token: StoreHistoryToken {
    /// The cached transactions, oldest first, without gaps (see the type's documentation).
    package private(set) var transactions: [Transaction] = []
    /// The transactions' sequences, in the same order: lookups search these without going through the
    /// generic transaction type.
    private var sequences: [Int64] = []
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
        guard let first = sequences.first, let last = sequences.last else { return nil }
        return first...last
    }

    /// Whether a transaction of `changeCount` changes would be kept: not when it has more than the whole cache
    /// holds (a batch delete of thousands), which would push out every other transaction for one that few
    /// readers read, at the cost of decoding all its changes at commit.
    package func caches(changeCount: Int) -> Bool {
        changeLimit > 0 && changeCount <= changeLimit
    }

    /// Remembers `newer`, which must be every transaction of the store after sequence `after` up to the last
    /// of them, in commit order. When the cache ends before `after`, what lies between is unknown, so the
    /// cache starts again from `newer`; transactions it holds already are skipped.
    package mutating func remember(_ newer: some Sequence<Transaction>, after: Int64) {
        guard changeLimit > 0 else { return }
        if let last = sequences.last, last < after {
            removeAll()
        }
        let cachedThrough = sequences.last ?? .min
        for transaction in newer {
            let sequence = transaction.token.sequence
            guard sequence > cachedThrough else { continue }
            guard caches(changeCount: transaction.changes.count) else {
                // Not kept; the cache keeps no gap, so it starts again after it.
                removeAll()
                continue
            }
            transactions.append(transaction)
            sequences.append(sequence)
            changeCount += transaction.changes.count
        }
        guard changeCount > changeLimit * 3 / 2 else { return }
        var dropped = 0
        while transactions.count - dropped > 1 && changeCount > changeLimit {
            changeCount -= transactions[dropped].changes.count
            dropped += 1
        }
        transactions.removeFirst(dropped)
        sequences.removeFirst(dropped)
    }

    /// Empties the cache (the store's history was replaced, or its epoch changed).
    package mutating func removeAll() {
        transactions.removeAll(keepingCapacity: true)
        sequences.removeAll(keepingCapacity: true)
        changeCount = 0
    }

    /// The cached transactions after `sequence`, when the cache holds all of them (it starts at or before
    /// `sequence + 1`); otherwise `nil`.
    package func suffix(after sequence: Int64) -> ArraySlice<Transaction>? {
        guard let first = sequences.first, first <= sequence &+ 1 else { return nil }
        return transactions[sequences.partitioningIndex { $0 > sequence }...]
    }

    /// The cached transaction with `sequence`: where sequences are consecutive (as they are unless history
    /// was deleted) at its offset from the first, otherwise found by binary search.
    package func transaction(_ sequence: Int64) -> Transaction? {
        guard let first = sequences.first, sequence >= first else { return nil }
        let offset = sequence - first
        if offset < sequences.count, sequences[Int(offset)] == sequence { return transactions[Int(offset)] }
        let index = sequences.partitioningIndex { $0 >= sequence }
        guard index < sequences.endIndex, sequences[index] == sequence else { return nil }
        return transactions[index]
    }
}
