/// Counters of the work history queries did, for tests and benchmarks to prove that a store seeks.
public struct HistoryQueryStatistics: Hashable, Sendable {
    /// Transactions the query looked at after seeking (each is a candidate).
    public var examinedTransactions: Int = 0
    /// Times the descriptor's predicate was evaluated.
    public var predicateEvaluations: Int = 0

    /// Zero counters.
    public init() {}

    /// Adds another query's counters to these.
    public mutating func add(_ other: HistoryQueryStatistics) {
        examinedTransactions += other.examinedTransactions
        predicateEvaluations += other.predicateEvaluations
    }
}
