public import Foundation
import Synchronization

/// Reads the conjunctive comparisons out of a Foundation `Predicate`.
///
/// It walks the predicate's expression tree through `&&` and collects every comparison between a key path
/// on the input and a constant (`$0.token > token`, `$0.author == author`, `date <= $0.timestamp`,
/// `$0.name != "x"`). Anything else (`||`, `!`, function calls, optional chaining) contributes nothing, which
/// is always safe: the constraints are necessary conditions. ``analysis(of:)`` also says whether they are
/// the *whole* predicate, so that a store can run it natively and skip Swift evaluation.
public enum PredicateConjuncts {
    /// Expression types known not to be a ``MembershipExpression``. A failed cast to an existential searches
    /// the conformance records on every call (about 0.2 µs measured), and most predicates are not membership
    /// tests; type metadata is never freed, so a type's identifier stays its own.
    private static let notMembership = Mutex<Set<ObjectIdentifier>>([])

    /// The key path and captured values of a whole predicate of the form `values.contains($0.attribute)`.
    static func membership(of expression: Any) -> (keyPath: AnyKeyPath, values: Any)? {
        let type = ObjectIdentifier(Swift.type(of: expression))
        if notMembership.withLock({ $0.contains(type) }) { return nil }
        guard let membership = expression as? any MembershipExpression else {
            notMembership.withLock { _ = $0.insert(type) }
            return nil
        }
        return membership.membership
    }

    /// The constraints that every input accepted by `predicate` satisfies.
    public static func constraints<Input>(of predicate: Predicate<Input>) -> [KeyPathConstraint] {
        analysis(of: predicate).constraints
    }

    /// The constraints, and whether the predicate is exactly their conjunction.
    public static func analysis<Input>(of predicate: Predicate<Input>) -> (
        constraints: [KeyPathConstraint], isWholePredicate: Bool
    ) {
        var found: [KeyPathConstraint] = []
        let whole =
            (predicate.expression as? any ConjunctCollecting)?.collectConstraints(into: &found) ?? false
        return (found, whole)
    }
}

/// An expression that can contribute constraints; conformed to by `&&`, comparisons, `==` and `!=`.
protocol ConjunctCollecting {
    /// Appends the constraints the expression implies; returns whether they are all of it.
    func collectConstraints(into constraints: inout [KeyPathConstraint]) -> Bool
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
    func collectConstraints(into constraints: inout [KeyPathConstraint]) -> Bool {
        let left = (lhs as? any ConjunctCollecting)?.collectConstraints(into: &constraints) ?? false
        let right = (rhs as? any ConjunctCollecting)?.collectConstraints(into: &constraints) ?? false
        return left && right
    }
}

extension PredicateExpressions.Comparison: ConjunctCollecting {
    func collectConstraints(into constraints: inout [KeyPathConstraint]) -> Bool {
        let relation: KeyPathConstraint.Relation =
            switch op {
            case .lessThan: .lessThan
            case .lessThanOrEqual: .lessThanOrEqual
            case .greaterThan: .greaterThan
            case .greaterThanOrEqual: .greaterThanOrEqual
            }
        return appendComparison(lhs: lhs, rhs: rhs, relation: relation, into: &constraints)
    }
}

extension PredicateExpressions.Equal: ConjunctCollecting {
    func collectConstraints(into constraints: inout [KeyPathConstraint]) -> Bool {
        appendComparison(lhs: lhs, rhs: rhs, relation: .equal, into: &constraints)
    }
}

extension PredicateExpressions.NotEqual: ConjunctCollecting {
    func collectConstraints(into constraints: inout [KeyPathConstraint]) -> Bool {
        appendComparison(lhs: lhs, rhs: rhs, relation: .notEqual, into: &constraints)
    }
}

/// Appends `keyPath relation constant` when one side is a key path on the input and the other a constant;
/// returns whether it did.
private func appendComparison(
    lhs: Any, rhs: Any, relation: KeyPathConstraint.Relation, into constraints: inout [KeyPathConstraint]
) -> Bool {
    if let keyPath = (lhs as? any InputKeyPathExpression)?.inputKeyPath,
        let constant = rhs as? any ConstantExpression
    {
        constraints.append(
            KeyPathConstraint(keyPath: keyPath, relation: relation, value: constant.constantValue))
        return true
    } else if let keyPath = (rhs as? any InputKeyPathExpression)?.inputKeyPath,
        let constant = lhs as? any ConstantExpression
    {
        constraints.append(
            KeyPathConstraint(keyPath: keyPath, relation: relation.mirrored, value: constant.constantValue))
        return true
    }
    return false
}

/// `constant.contains(input[keyPath])`: a membership test of a key path on the input in a captured sequence.
protocol MembershipExpression {
    /// The key path and the captured sequence, when the expression is such a test.
    var membership: (keyPath: AnyKeyPath, values: Any)? { get }
}

extension PredicateExpressions.SequenceContains: MembershipExpression {
    var membership: (keyPath: AnyKeyPath, values: Any)? {
        guard let values = (sequence as? any ConstantExpression)?.constantValue,
            let keyPath = (element as? any InputKeyPathExpression)?.inputKeyPath
        else { return nil }
        return (keyPath, values)
    }
}
