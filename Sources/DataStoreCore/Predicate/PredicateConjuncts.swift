public import Foundation

/// Reads the conjunctive comparisons out of a Foundation `Predicate`.
///
/// It walks the predicate's expression tree through `&&` and collects every comparison between a key path
/// on the input and a constant (`$0.token > token`, `$0.author == author`, `date <= $0.timestamp`). Anything
/// else (`||`, `!`, function calls, optional chaining) contributes nothing, which is always safe: the
/// constraints are necessary conditions only, and stores evaluate the whole predicate on their candidates.
public enum PredicateConjuncts {
    /// The constraints that every input accepted by `predicate` satisfies.
    public static func constraints<Input>(of predicate: Predicate<Input>) -> [KeyPathConstraint] {
        var found: [KeyPathConstraint] = []
        (predicate.expression as? any ConjunctCollecting)?.collectConstraints(into: &found)
        return found
    }
}

/// An expression that can contribute constraints; conformed to by `&&`, comparisons and `==`.
protocol ConjunctCollecting {
    func collectConstraints(into constraints: inout [KeyPathConstraint])
}

/// A key path applied directly to the predicate's input.
protocol InputKeyPathExpression {
    var inputKeyPath: AnyKeyPath? { get }
}

/// A constant captured by the predicate.
protocol ConstantExpression {
    var constantValue: Any { get }
}

extension PredicateExpressions.KeyPath: InputKeyPathExpression {
    var inputKeyPath: AnyKeyPath? {
        // Only a key path on the input variable itself; `$0.a?.b` roots are other expressions.
        root is any VariableExpression ? keyPath : nil
    }
}

/// The predicate's input variable.
protocol VariableExpression {}
extension PredicateExpressions.Variable: VariableExpression {}

extension PredicateExpressions.Value: ConstantExpression {
    var constantValue: Any { value }
}

extension PredicateExpressions.Conjunction: ConjunctCollecting {
    func collectConstraints(into constraints: inout [KeyPathConstraint]) {
        (lhs as? any ConjunctCollecting)?.collectConstraints(into: &constraints)
        (rhs as? any ConjunctCollecting)?.collectConstraints(into: &constraints)
    }
}

extension PredicateExpressions.Comparison: ConjunctCollecting {
    func collectConstraints(into constraints: inout [KeyPathConstraint]) {
        let relation: KeyPathConstraint.Relation =
            switch op {
            case .lessThan: .lessThan
            case .lessThanOrEqual: .lessThanOrEqual
            case .greaterThan: .greaterThan
            case .greaterThanOrEqual: .greaterThanOrEqual
            }
        appendComparison(lhs: lhs, rhs: rhs, relation: relation, into: &constraints)
    }
}

extension PredicateExpressions.Equal: ConjunctCollecting {
    func collectConstraints(into constraints: inout [KeyPathConstraint]) {
        appendComparison(lhs: lhs, rhs: rhs, relation: .equal, into: &constraints)
    }
}

private func appendComparison(
    lhs: Any, rhs: Any, relation: KeyPathConstraint.Relation, into constraints: inout [KeyPathConstraint]
) {
    if let keyPath = (lhs as? any InputKeyPathExpression)?.inputKeyPath,
        let constant = rhs as? any ConstantExpression
    {
        constraints.append(
            KeyPathConstraint(keyPath: keyPath, relation: relation, value: constant.constantValue))
    } else if let keyPath = (rhs as? any InputKeyPathExpression)?.inputKeyPath,
        let constant = lhs as? any ConstantExpression
    {
        constraints.append(
            KeyPathConstraint(keyPath: keyPath, relation: relation.mirrored, value: constant.constantValue))
    }
}
