@_spi(DataStoreInternals) import DataStoreCore
public import Foundation
import Synchronization

/// Reads the conjunctive comparisons out of a Foundation `Predicate`.
///
/// It walks the predicate's expression tree through `&&` and collects every comparison between a key path
/// on the input and a constant (`$0.token > token`, `$0.author == author`, `date <= $0.timestamp`,
/// `$0.name != "x"`). Anything else (`||`, `!`, function calls, optional chaining) contributes nothing, which
/// is always safe: the constraints are necessary conditions. ``analysis(of:)`` also says whether they are
/// the *whole* predicate, so that a store can run it natively and skip Swift evaluation.
///
/// The walk is worked out once per expression type: the shape of a predicate is its
/// type, and only the key paths and constants differ from one predicate to the next.
public enum PredicateConjuncts {
    /// The constraints that every input accepted by `predicate` satisfies.
    public static func constraints<Input>(of predicate: Predicate<Input>) -> [KeyPathConstraint] {
        analysis(of: predicate).constraints
    }

    /// The constraints, and whether the predicate is exactly their conjunction.
    public static func analysis<Input>(of predicate: Predicate<Input>) -> (
        constraints: [KeyPathConstraint], isWholePredicate: Bool
    ) {
        var found: [KeyPathConstraint] = []
        let whole = conjuncts(of: predicate.expression, into: &found)
        return (found, whole)
    }

    /// Appends the constraints of `expression`; returns whether they are all of it.
    private static func conjuncts<Expression: PredicateExpression>(
        of expression: Expression, into found: inout [KeyPathConstraint]
    ) -> Bool {
        ExpressionReader.of(Expression.self).conjuncts?(expression, &found) ?? false
    }

    /// The key path and captured values of a whole predicate of the form `values.contains($0.attribute)`.
    static func membership<Expression: PredicateExpression>(of expression: Expression) -> (
        keyPath: AnyKeyPath, values: Any
    )? {
        ExpressionReader.of(Expression.self).membership?(expression)
    }
}

/// How to read one expression type: which of its operands are key paths on the input, constants or further
/// conjuncts, worked out once with dynamic casts and then applied to each value of the type without any.
///
/// A cast to an existential (`expression as? any ConjunctCollecting`) searches the conformance records on
/// every call, about 0.2 µs each here, and reading an equality took five of them: more than the indexed
/// lookup the reading was for. The readers apply `unsafeBitCast` only between a type and itself: each is made
/// for the exact type a cast matched, and cached under that type.
final class ExpressionReader<Expression>: @unchecked Sendable {
    // `@unchecked`: immutable; the closures capture only metatypes and other readers.
    /// Appends a value's constraints and returns whether they are all of it; `nil` when the type has none.
    let conjuncts: ((Expression, inout [KeyPathConstraint]) -> Bool)?
    /// A value's key path and captured sequence, when the type is `constant.contains($0.attribute)`.
    let membership: ((Expression) -> (keyPath: AnyKeyPath, values: Any)?)?

    private init() {
        conjuncts = ConjunctReading.reader(Expression.self)
        membership = ConjunctReading.membershipReader(Expression.self)
    }

    /// The reader of `Expression`, made on first use.
    package static func of(_: Expression.Type) -> ExpressionReader<Expression> {
        let key = ObjectIdentifier(Expression.self)
        if let known = expressionReaders.withLock({ $0[key] }) {
            return unsafeDowncast(known.reader, to: ExpressionReader<Expression>.self)
        }
        let made = ExpressionReader()
        expressionReaders.withLock { $0[key] = ReaderEntry(reader: made) }
        return made
    }
}

/// The readers of every expression type seen, each an `ExpressionReader<T>` under `T`'s identifier (a
/// generic class cannot have a stored static property). Type metadata is never freed, so a type's identifier
/// stays its own.
private let expressionReaders = Lock<[ObjectIdentifier: ReaderEntry]>([:])

private struct ReaderEntry: @unchecked Sendable {
    // `@unchecked`: an `ExpressionReader`, immutable.
    let reader: AnyObject
}

/// Makes the closures an ``ExpressionReader`` holds, by casting metatypes (once per type) instead of values.
enum ConjunctReading {
    /// Appends a value's constraints and returns whether they are all of it; `nil` when `T` contributes none.
    typealias Collect<T> = (T, inout [KeyPathConstraint]) -> Bool

    /// The reader of a `&&`, a comparison, `==` or `!=`; `nil` for any other type.
    static func reader<T>(_: T.Type) -> Collect<T>? {
        guard let collecting = T.self as? any ConjunctCollecting.Type else { return nil }
        return reader(opening: collecting, as: T.self)
    }

    private static func reader<C: ConjunctCollecting, T>(opening _: C.Type, as _: T.Type) -> Collect<T> {
        let read = C.makeReader()
        return { value, found in read(unsafeBitCast(value, to: C.self), &found) }
    }

    /// The reader of a key path applied to the predicate's input itself; `nil` for anything else (a key path
    /// on another expression, as in `$0.a?.b`).
    static func keyPathReader<T>(_: T.Type) -> ((T) -> AnyKeyPath)? {
        guard let keyPath = T.self as? any InputKeyPathExpression.Type, keyPath.readsInput else { return nil }
        return keyPathReader(opening: keyPath, as: T.self)
    }

    private static func keyPathReader<K: InputKeyPathExpression, T>(opening _: K.Type, as _: T.Type)
        -> (T) -> AnyKeyPath
    {
        { unsafeBitCast($0, to: K.self).inputKeyPath }
    }

    /// The reader of a constant the predicate captured; `nil` for anything else.
    static func constantReader<T>(_: T.Type) -> ((T) -> Any)? {
        guard let constant = T.self as? any ConstantExpression.Type else { return nil }
        return constantReader(opening: constant, as: T.self)
    }

    private static func constantReader<C: ConstantExpression, T>(opening _: C.Type, as _: T.Type) -> (T) ->
        Any
    {
        { unsafeBitCast($0, to: C.self).constantValue }
    }

    /// The reader of a constant's persisted form, when its static type has one; `nil` otherwise (then the
    /// value is converted, if it can be, by a cast where it is used).
    static func snapshotReader<T>(_: T.Type) -> ((T) -> SnapshotValue)? {
        guard let constant = T.self as? any ConstantExpression.Type else { return nil }
        return snapshotReader(opening: constant, as: T.self)
    }

    private static func snapshotReader<C: ConstantExpression, T>(opening _: C.Type, as _: T.Type)
        -> ((T) -> SnapshotValue)?
    {
        guard let convert = C.snapshotConverter() else { return nil }
        return { convert(unsafeBitCast($0, to: C.self)) }
    }

    static func comparisonReader<L, R>(_: L.Type, _: R.Type) -> (
        L, R, KeyPathConstraint.Relation, inout [KeyPathConstraint]
    ) -> Bool {
        if let keyPath = keyPathReader(L.self), let constant = constantReader(R.self) {
            let snapshot = snapshotReader(R.self)
            return { lhs, rhs, relation, found in
                var constraint = KeyPathConstraint(
                    keyPath: keyPath(lhs), relation: relation, value: constant(rhs))
                constraint.snapshotValue = snapshot?(rhs)
                found.append(constraint)
                return true
            }
        }
        if let keyPath = keyPathReader(R.self), let constant = constantReader(L.self) {
            let snapshot = snapshotReader(L.self)
            return { lhs, rhs, relation, found in
                var constraint = KeyPathConstraint(
                    keyPath: keyPath(rhs), relation: relation.mirrored, value: constant(lhs))
                constraint.snapshotValue = snapshot?(lhs)
                found.append(constraint)
                return true
            }
        }
        return { _, _, _, _ in false }
    }

    /// The reader of `constant.contains($0.attribute)`; `nil` for any other type.
    static func membershipReader<T>(_: T.Type) -> ((T) -> (keyPath: AnyKeyPath, values: Any)?)? {
        guard let membership = T.self as? any MembershipExpression.Type else { return nil }
        return membershipReader(opening: membership, as: T.self)
    }

    private static func membershipReader<M: MembershipExpression, T>(opening _: M.Type, as _: T.Type)
        -> (T) -> (keyPath: AnyKeyPath, values: Any)?
    {
        guard let read = M.makeReader() else { return { _ in nil } }
        return { read(unsafeBitCast($0, to: M.self)) }
    }
}

/// An expression that can contribute constraints; conformed to by `&&`, comparisons, `==` and `!=`.
protocol ConjunctCollecting {
    /// A reader that appends a value's constraints and returns whether they are all of it.
    static func makeReader() -> ConjunctReading.Collect<Self>
}

/// A key path applied to an expression.
protocol InputKeyPathExpression {
    /// Whether the key path is applied directly to the predicate's input variable.
    static var readsInput: Bool { get }
    var inputKeyPath: AnyKeyPath { get }
}

/// A constant captured by the predicate.
protocol ConstantExpression {
    var constantValue: Any { get }
    /// Converts a constant of this type to its persisted form, when its static type has one.
    static func snapshotConverter() -> ((Self) -> SnapshotValue)?
}

extension PredicateExpressions.KeyPath: InputKeyPathExpression {
    // Only a key path on the input variable itself; `$0.a?.b` roots are other expressions.
    static var readsInput: Bool { Root.self is any VariableExpression.Type }
    var inputKeyPath: AnyKeyPath { keyPath }
}

/// The predicate's input variable.
protocol VariableExpression {}
extension PredicateExpressions.Variable: VariableExpression {}

extension PredicateExpressions.Value: ConstantExpression {
    var constantValue: Any { value }

    static func snapshotConverter() -> ((Self) -> SnapshotValue)? {
        guard let convertible = Output.self as? any SnapshotValueConvertible.Type else { return nil }
        return converter(opening: convertible)
    }

    private static func converter<V: SnapshotValueConvertible>(opening _: V.Type) -> (Self) -> SnapshotValue {
        { unsafeBitCast($0.value, to: V.self).snapshotValue }
    }
}

extension PredicateExpressions.Conjunction: ConjunctCollecting {
    static func makeReader() -> ConjunctReading.Collect<Self> {
        let left = ConjunctReading.reader(LHS.self)
        let right = ConjunctReading.reader(RHS.self)
        return { expression, found in
            let leftIsWhole = left?(expression.lhs, &found) ?? false
            let rightIsWhole = right?(expression.rhs, &found) ?? false
            return leftIsWhole && rightIsWhole
        }
    }
}

extension PredicateExpressions.Comparison: ConjunctCollecting {
    static func makeReader() -> ConjunctReading.Collect<Self> {
        let compare = ConjunctReading.comparisonReader(LHS.self, RHS.self)
        return { expression, found in
            let relation: KeyPathConstraint.Relation =
                switch expression.op {
                case .lessThan: .lessThan
                case .lessThanOrEqual: .lessThanOrEqual
                case .greaterThan: .greaterThan
                case .greaterThanOrEqual: .greaterThanOrEqual
                }
            return compare(expression.lhs, expression.rhs, relation, &found)
        }
    }
}

extension PredicateExpressions.Equal: ConjunctCollecting {
    static func makeReader() -> ConjunctReading.Collect<Self> {
        let compare = ConjunctReading.comparisonReader(LHS.self, RHS.self)
        return { expression, found in compare(expression.lhs, expression.rhs, .equal, &found) }
    }
}

extension PredicateExpressions.NotEqual: ConjunctCollecting {
    static func makeReader() -> ConjunctReading.Collect<Self> {
        let compare = ConjunctReading.comparisonReader(LHS.self, RHS.self)
        return { expression, found in compare(expression.lhs, expression.rhs, .notEqual, &found) }
    }
}

/// `constant.contains(input[keyPath])`: a membership test of a key path on the input in a captured sequence.
protocol MembershipExpression {
    /// A reader of the key path and the captured sequence, or `nil` when the type is no such test.
    static func makeReader() -> ((Self) -> (keyPath: AnyKeyPath, values: Any))?
}

extension PredicateExpressions.SequenceContains: MembershipExpression {
    static func makeReader() -> ((Self) -> (keyPath: AnyKeyPath, values: Any))? {
        guard let values = ConjunctReading.constantReader(LHS.self),
            let keyPath = ConjunctReading.keyPathReader(RHS.self)
        else { return nil }
        return { (keyPath($0.element), values($0.sequence)) }
    }
}
