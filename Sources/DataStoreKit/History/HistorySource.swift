public import DataStoreCore

/// Where ``HistoryQuery`` reads candidate transactions from: a store's history, sought by sequence and read
/// in batches, so that a database-backed store never loads more history than a query needs.
///
/// ``HistoryQuery/run(_:source:statistics:)`` validates every token first, without calling the source, then
/// asks for batches in commit order until the fetch limit is reached or the source runs out.
///
/// # Implementation requirements
///
/// - ``transactions(after:through:bounds:limit:)`` returns, in commit (sequence) order, at most `limit`
///   transactions whose sequence is greater than `after` and at most `through` (both bounds are sequences,
///   `after` exclusive, `through` inclusive). In SQL:
///   `WHERE sequence > ? AND sequence <= ? ORDER BY sequence LIMIT ?`.
/// - It may also apply the timestamp bounds in `bounds` (`lowerTimestamp`, `upperTimestamp`, each with its
///   `isInclusive`) and `bounds.author`, or ignore them: the query evaluates the full predicate on whatever
///   comes back. It must never drop a transaction that satisfies all of them.
/// - Returning fewer than `limit` transactions means there are no more in the range.
/// - It is called only after the tokens were validated, holding whatever lock makes the store's history
///   stable for the query.
public protocol HistorySource<Transaction> {
    /// The store's transaction type.
    associatedtype Transaction: HistoryTransaction

    /// Up to `limit` transactions with `after < sequence <= through`, in commit order.
    func transactions(
        after: Int64, through: Int64, bounds: HistoryPredicateBounds<Transaction>, limit: Int
    ) throws -> [Transaction]
}

/// A history held in memory in commit order, as a ``HistorySource``: binary search on sequence and
/// timestamp, then a slice.
public struct InMemoryHistoryLog<Log: RandomAccessCollection>: HistorySource
where Log.Element: HistoryTransaction, Log.Element.Token: StoreHistoryToken {
    /// The transactions, ordered by sequence, with timestamps that never decrease.
    public var log: Log

    /// Wraps a log.
    public init(_ log: Log) {
        self.log = log
    }

    /// The transactions in the sequence range and within the timestamp bounds, by binary search.
    public func transactions(
        after: Int64, through: Int64, bounds: HistoryPredicateBounds<Log.Element>, limit: Int
    ) -> [Log.Element] {
        Array(log[range(after: after, through: through, bounds: bounds)].prefix(limit))
    }

    /// The indices of the transactions with `after < sequence <= through` within the timestamp bounds.
    func range(after: Int64, through: Int64, bounds: HistoryPredicateBounds<Log.Element>) -> Range<Log.Index>
    {
        var start = log.partitioningIndex { $0.token.sequence > after }
        var end = log.partitioningIndex { $0.token.sequence > through }
        if let bound = bounds.lowerTimestamp {
            start = Swift.max(
                start,
                log.partitioningIndex {
                    bound.isInclusive ? $0.timestamp >= bound.value : $0.timestamp > bound.value
                })
        }
        if let bound = bounds.upperTimestamp {
            end = Swift.min(
                end,
                log.partitioningIndex {
                    bound.isInclusive ? $0.timestamp > bound.value : $0.timestamp >= bound.value
                })
        }
        return start..<Swift.max(start, end)
    }
}
