public import DataStoreCore
public import Foundation

/// The pieces random predicates are built from, for any model: comparisons of an attribute with a constant
/// (on either side), equality, and `&&`, `||` and `!`. Shared by the `predicates` fuzz target and the
/// pushdown property tests (`RandomPredicates`), which draw their choices differently.
public enum PredicateBuilding<Model: PersistentModel> {
    /// A Boolean predicate expression of any shape.
    public typealias Expression = any StandardPredicateExpression<Bool>

    /// `x == c`, `x != c`, `x < c`, `x <= c`, `c > x`, `x >= c` or `c == x` for `operation` 0 to 6.
    public static func compare<Value: Comparable & Codable & Sendable>(
        _ variable: PredicateExpressions.Variable<Model>, _ keyPath: any KeyPath<Model, Value> & Sendable,
        _ constant: Value, _ operation: Int
    ) -> Expression {
        let lhs = PredicateExpressions.build_KeyPath(root: variable, keyPath: keyPath)
        let rhs = PredicateExpressions.build_Arg(constant)
        switch operation {
        case 0: return PredicateExpressions.build_Equal(lhs: lhs, rhs: rhs)
        case 1: return PredicateExpressions.build_NotEqual(lhs: lhs, rhs: rhs)
        case 2: return PredicateExpressions.build_Comparison(lhs: lhs, rhs: rhs, op: .lessThan)
        case 3: return PredicateExpressions.build_Comparison(lhs: lhs, rhs: rhs, op: .lessThanOrEqual)
        case 4: return PredicateExpressions.build_Comparison(lhs: rhs, rhs: lhs, op: .greaterThan)
        case 6: return PredicateExpressions.build_Equal(lhs: rhs, rhs: lhs)
        default: return PredicateExpressions.build_Comparison(lhs: lhs, rhs: rhs, op: .greaterThanOrEqual)
        }
    }

    /// `x == c`, or `x != c` when `equal` is false.
    public static func equality<Value: Equatable & Codable & Sendable>(
        _ variable: PredicateExpressions.Variable<Model>, _ keyPath: any KeyPath<Model, Value> & Sendable,
        _ constant: Value, _ equal: Bool
    ) -> Expression {
        let lhs = PredicateExpressions.build_KeyPath(root: variable, keyPath: keyPath)
        let rhs = PredicateExpressions.build_Arg(constant)
        return equal
            ? PredicateExpressions.build_Equal(lhs: lhs, rhs: rhs)
            : PredicateExpressions.build_NotEqual(lhs: lhs, rhs: rhs)
    }

    /// `a && b`.
    public static func and<A: StandardPredicateExpression<Bool>, B: StandardPredicateExpression<Bool>>(
        _ a: A, _ b: B
    ) -> Expression {
        PredicateExpressions.build_Conjunction(lhs: a, rhs: b)
    }

    /// `a || b`.
    public static func or<A: StandardPredicateExpression<Bool>, B: StandardPredicateExpression<Bool>>(
        _ a: A, _ b: B
    ) -> Expression {
        PredicateExpressions.build_Disjunction(lhs: a, rhs: b)
    }

    /// `!a`.
    public static func not<A: StandardPredicateExpression<Bool>>(_ a: A) -> Expression {
        PredicateExpressions.build_Negation(a)
    }
}
