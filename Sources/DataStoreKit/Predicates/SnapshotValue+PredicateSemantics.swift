public import DataStoreCore
import Foundation

extension SnapshotValue {
    /// Whether this stored value satisfies `relation value` the way a Swift `#Predicate` on the model decides
    /// it. A store that runs a pushed-down comparison natively (SQL, an index) must decide every comparison
    /// alike, or skip the pushdown:
    ///
    /// - **Strings** compare as Swift's `String` does: canonically equivalent strings are equal, and order
    ///   follows the Unicode scalar values of their NFC form. In SQL: store NFC-normalised text and compare
    ///   with a binary (C) collation; never a locale collation, and never case-insensitively.
    /// - **Doubles**: NaN equals nothing, itself included, and every ordering with NaN is false; `0.0` equals
    ///   `-0.0`. An integer compared with a double compares as doubles.
    /// - **Optionals**: `nil == nil` is true and `nil != x` is true; an ordering involving `nil` is false
    ///   (`#Predicate` cannot order optionals). In SQL, `col = NULL` is never true: use `IS NULL`, and
    ///   `IS NOT` for `!=`.
    /// - **Bools, data, UUIDs, identifiers and arrays** are compared for equality only; an ordering is false.
    ///
    /// `ModelPredicateBounds.isExact` promises that a model matches its predicate exactly when every
    /// attribute constraint holds under these rules.
    public func satisfies(_ relation: KeyPathConstraint.Relation, _ other: SnapshotValue) -> Bool {
        switch relation {
        case .equal: return isEqualInPredicate(to: other)
        case .notEqual: return !isEqualInPredicate(to: other)
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            guard let order = orderInPredicate(comparedWith: other) else { return false }
            switch relation {
            case .lessThan: return order == .orderedAscending
            case .lessThanOrEqual: return order != .orderedDescending
            case .greaterThan: return order == .orderedDescending
            default: return order != .orderedAscending
            }
        }
    }

    /// Swift's `==`, which differs from the stored-value equality of `==` on `SnapshotValue` for NaN.
    private func isEqualInPredicate(to other: SnapshotValue) -> Bool {
        switch (self, other) {
        case (.double(let a), .double(let b)): a == b
        case (.integer(let a), .double(let b)): Double(a) == b
        case (.double(let a), .integer(let b)): a == Double(b)
        default: self == other
        }
    }

    /// Swift's ordering, or `nil` where Swift has none (or NaN makes every ordering false).
    private func orderInPredicate(comparedWith other: SnapshotValue) -> ComparisonResult? {
        switch (self, other) {
        case (.null, _), (_, .null), (.bool, _), (.data, _), (.identifier, _), (.array, _): return nil
        case (.double(let value), _) where value.isNaN: return nil
        case (_, .double(let value)) where value.isNaN: return nil
        default: return compare(to: other)
        }
    }
}
