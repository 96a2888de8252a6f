public import DataStoreCore
public import Foundation

/// The bounds a history predicate places on `token`, `timestamp`, `transactionIdentifier` and `author`.
///
/// Stores read these to seek: `#Predicate { $0.token > t && $0.author == "widget" }` yields a lower token
/// bound of `t` (exclusive) and an author of `"widget"`. Bounds are necessary conditions only; the store
/// still evaluates the whole predicate on each candidate.
public struct HistoryPredicateBounds<Transaction: HistoryTransaction>: Sendable {
    /// One end of a range: the value and whether the value itself is included.
    public struct Bound<Value: Sendable>: Sendable {
        /// The bounding value.
        public var value: Value
        /// Whether ``value`` itself satisfies the bound (`>=` rather than `>`).
        public var isInclusive: Bool

        /// Creates a bound.
        public init(value: Value, isInclusive: Bool) {
            self.value = value
            self.isInclusive = isInclusive
        }
    }

    /// Every token the predicate compares against, for validation before any read.
    public var tokens: [Transaction.Token] = []
    /// Transactions must come after this token (or at it, if inclusive).
    public var lowerToken: Bound<Transaction.Token>?
    /// Transactions must come before this token (or at it, if inclusive).
    public var upperToken: Bound<Transaction.Token>?
    /// Earliest timestamp.
    public var lowerTimestamp: Bound<Date>?
    /// Latest timestamp.
    public var upperTimestamp: Bound<Date>?
    /// Smallest transaction identifier.
    public var lowerTransactionIdentifier: Bound<Int64>?
    /// Largest transaction identifier.
    public var upperTransactionIdentifier: Bound<Int64>?
    /// The author every matching transaction has, when the predicate requires `author == value`.
    public var author: String?

    /// Whether these bounds are the whole predicate: a transaction within every bound (and by ``author``)
    /// matches, so a store that applies them natively need not evaluate the predicate. `true` without a
    /// predicate. Token bounds are exact once the tokens are validated: then they compare by sequence.
    public var isExact = true

    /// No bounds: every transaction is a candidate.
    public init() {}

    /// Reads the bounds of a predicate; `nil` has none.
    public init(_ predicate: Predicate<Transaction>?) {
        guard let predicate else { return }
        let analysis = PredicateConjuncts.analysis(of: predicate)
        isExact = analysis.isWholePredicate
        for constraint in analysis.constraints where !add(constraint) {
            isExact = false
        }
    }

    /// Narrows the bounds with one constraint; returns whether the bounds express it exactly.
    private mutating func add(_ constraint: KeyPathConstraint) -> Bool {
        let keyPaths = Transaction.keyPaths
        guard constraint.relation != .notEqual else { return false }
        switch constraint.keyPath {
        case keyPaths.token:
            guard let token = constraint.value as? Transaction.Token else { return false }
            tokens.append(token)
            Self.narrow(&lowerToken, &upperToken, token, constraint.relation)
        case keyPaths.timestamp:
            guard let date = constraint.value as? Date else { return false }
            Self.narrow(&lowerTimestamp, &upperTimestamp, date, constraint.relation)
        case keyPaths.transactionIdentifier:
            guard let identifier = constraint.value as? Int64 else { return false }
            Self.narrow(
                &lowerTransactionIdentifier, &upperTransactionIdentifier, identifier, constraint.relation)
        case keyPaths.author where constraint.relation == .equal:
            let named = (constraint.value as? String) ?? ((constraint.value as? String?) ?? nil)
            // `author == nil`, or two different authors, is not expressible as one author bound.
            guard let named, author == nil || author == named else { return false }
            author = named
        default:
            return false
        }
        return true
    }

    /// Whether `transaction` is within every bound. When ``isExact`` holds and the tokens were validated
    /// (same store and epoch as `transaction`), this is the predicate's answer, without evaluating it.
    public func contains(_ transaction: Transaction) -> Bool where Transaction.Token: StoreHistoryToken {
        let sequence = transaction.token.sequence
        if let bound = lowerToken, !Self.isAbove(sequence, bound.value.sequence, bound.isInclusive) {
            return false
        }
        if let bound = upperToken, !Self.isAbove(bound.value.sequence, sequence, bound.isInclusive) {
            return false
        }
        let timestamp = transaction.timestamp
        if let bound = lowerTimestamp, !Self.isAbove(timestamp, bound.value, bound.isInclusive) {
            return false
        }
        if let bound = upperTimestamp, !Self.isAbove(bound.value, timestamp, bound.isInclusive) {
            return false
        }
        let identifier = transaction.transactionIdentifier
        if let bound = lowerTransactionIdentifier, !Self.isAbove(identifier, bound.value, bound.isInclusive) {
            return false
        }
        if let bound = upperTransactionIdentifier, !Self.isAbove(bound.value, identifier, bound.isInclusive) {
            return false
        }
        if let author, transaction.author != author { return false }
        return true
    }

    /// `value > bound`, or `>=` when inclusive.
    private static func isAbove<Value: Comparable>(_ value: Value, _ bound: Value, _ inclusive: Bool) -> Bool
    {
        inclusive ? value >= bound : value > bound
    }

    /// Tightens a range with one comparison; a tighter existing bound wins.
    private static func narrow<Value: Comparable & Sendable>(
        _ lower: inout Bound<Value>?, _ upper: inout Bound<Value>?, _ value: Value,
        _ relation: KeyPathConstraint.Relation
    ) {
        func tightenLower(_ bound: Bound<Value>) {
            guard let current = lower else {
                lower = bound
                return
            }
            if bound.value > current.value || (bound.value == current.value && !bound.isInclusive) {
                lower = bound
            }
        }
        func tightenUpper(_ bound: Bound<Value>) {
            guard let current = upper else {
                upper = bound
                return
            }
            if bound.value < current.value || (bound.value == current.value && !bound.isInclusive) {
                upper = bound
            }
        }
        switch relation {
        case .greaterThan: tightenLower(Bound(value: value, isInclusive: false))
        case .greaterThanOrEqual: tightenLower(Bound(value: value, isInclusive: true))
        case .lessThan: tightenUpper(Bound(value: value, isInclusive: false))
        case .lessThanOrEqual: tightenUpper(Bound(value: value, isInclusive: true))
        case .equal:
            tightenLower(Bound(value: value, isInclusive: true))
            tightenUpper(Bound(value: value, isInclusive: true))
        case .notEqual: break
        }
    }
}
