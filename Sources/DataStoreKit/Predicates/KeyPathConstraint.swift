import DataStoreCore

/// One necessary condition read from a predicate: `keyPath relation value`, with the key path applied to
/// the predicate's input.
///
/// ``PredicateConjuncts/constraints(of:)`` returns these. Each holds for every input the predicate
/// accepts, so a store may use them to narrow its candidates; it still evaluates the full predicate.
public struct KeyPathConstraint: @unchecked Sendable {
    // `@unchecked`: key paths are immutable, and `value` comes from a `Predicate`, whose captured values
    // are `Sendable`.

    /// How the key path's value relates to ``value``.
    public enum Relation: Hashable, Sendable {
        /// `input[keyPath] < value`
        case lessThan
        /// `input[keyPath] <= value`
        case lessThanOrEqual
        /// `input[keyPath] > value`
        case greaterThan
        /// `input[keyPath] >= value`
        case greaterThanOrEqual
        /// `input[keyPath] == value`
        case equal
        /// `input[keyPath] != value`
        case notEqual

        /// The relation with its operands swapped: `v < x` is `x > v`.
        var mirrored: Relation {
            switch self {
            case .lessThan: .greaterThan
            case .lessThanOrEqual: .greaterThanOrEqual
            case .greaterThan: .lessThan
            case .greaterThanOrEqual: .lessThanOrEqual
            case .equal: .equal
            case .notEqual: .notEqual
            }
        }
    }

    /// The key path on the predicate's input.
    public var keyPath: AnyKeyPath
    /// The relation.
    public var relation: Relation
    /// The constant the key path's value is compared with.
    public var value: Any
    /// ``value`` in its persisted form, when the predicate's reader could tell from the constant's type
    /// (sparing a cast per use); `nil` when it could not, which says nothing about whether it converts.
    var snapshotValue: SnapshotValue?

    /// Creates a constraint.
    public init(keyPath: AnyKeyPath, relation: Relation, value: Any) {
        self.keyPath = keyPath
        self.relation = relation
        self.value = value
    }
}
