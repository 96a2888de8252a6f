public import Foundation

/// Which history transactions to fetch or delete, and in what order: the counterpart of SwiftData's
/// `HistoryDescriptor`.
///
/// Without a predicate it selects every retained transaction. Results come in commit order unless
/// ``sortBy`` says otherwise, and ``fetchLimit`` applies after sorting.
///
/// Stores read the predicate's conjunctive bounds on `token`, `timestamp`, `transactionIdentifier` and
/// `author` (see `HistoryPredicateBounds`) to seek instead of scanning, so
/// `#Predicate { $0.token > token }` costs O(log n) plus the transactions it returns.
public struct HistoryDescriptor<HistoryType: HistoryTransaction>: Sendable {
    /// The condition a transaction must meet, or `nil` for all.
    public var predicate: Predicate<HistoryType>?
    /// The sort order; empty means commit order.
    public var sortBy: [SortDescriptor<HistoryType>]
    /// The most transactions to return, or `nil` for no limit. Ignored by `deleteHistory`.
    public var fetchLimit: Int?

    /// Creates a descriptor.
    public init(
        predicate: Predicate<HistoryType>? = nil, sortBy: [SortDescriptor<HistoryType>] = [],
        fetchLimit: Int? = nil
    ) {
        self.predicate = predicate
        self.sortBy = sortBy
        self.fetchLimit = fetchLimit
    }
}
