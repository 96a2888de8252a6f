public import Foundation

/// One comparison of a named attribute with a persisted value, read from a fetch predicate
/// (``ModelPredicateBounds/attributeConstraints``).
///
/// Not nested in the generic ``ModelPredicateBounds``: a type nested in a generic one has its metadata
/// instantiated at run time, and code that is not specialised for the model paid that on every use.
public struct ModelAttributeConstraint: Hashable, Sendable {
    /// The attribute's name.
    public var name: String
    /// How the attribute's value relates to ``value``.
    public var relation: KeyPathConstraint.Relation
    /// The value compared with.
    public var value: SnapshotValue

    /// Creates a constraint.
    public init(name: String, relation: KeyPathConstraint.Relation, value: SnapshotValue) {
        self.name = name
        self.relation = relation
        self.value = value
    }
}

/// The bounds a fetch predicate places on a model's identifier and attributes, for stores to seek.
///
/// `#Predicate<Reading> { $0.timestamp >= from && $0.timestamp < to }` yields two constraints on the
/// `timestamp` attribute; `#Predicate<Trip> { $0.persistentModelID == id }` yields ``identifier``.
public struct ModelPredicateBounds<Model: PersistentModel>: Sendable {
    /// One comparison of a named attribute with a persisted value.
    public typealias AttributeConstraint = ModelAttributeConstraint

    /// The one identifier every match has, when the predicate requires `persistentModelID == id`.
    public var identifier: PersistentIdentifier?
    /// The identifiers every match is one of, when the whole predicate is `ids.contains($0.persistentModelID)`
    /// (how a context loads the models a fetch's relationships refer to).
    public var identifiers: Set<PersistentIdentifier>?
    /// The attribute and values every match's value is one of, when the whole predicate is
    /// `values.contains($0.attribute)` (the `IN` of SQL).
    public var attributeMembership: (name: String, values: [SnapshotValue])?
    /// The comparisons on attributes that every match satisfies.
    public var attributeConstraints: [AttributeConstraint] = []
    /// Whether ``identifier`` and ``attributeConstraints`` (or ``identifiers``, or ``attributeMembership``) are
    /// the whole predicate: a model that satisfies
    /// them all (compared as ``SnapshotValue/satisfies(_:_:)`` does) matches, so a store that applies them
    /// natively need not evaluate the predicate in Swift. `true` without a predicate.
    public var isExact = true

    /// Reads the bounds of a predicate; `nil` has none.
    public init(_ predicate: Predicate<Model>?) {
        guard let predicate else { return }
        // Once, not once per use: a cast to an existential looks the conformance up each time.
        let membership = PredicateConjuncts.membership(of: predicate.expression)
        if let membership, let members = Self.identifierSet(membership.values),
            Self.isIdentifier(membership.keyPath)
        {
            identifiers = members
            return
        }
        if let membership, let name = ModelTypeFacts.attributeName(for: membership.keyPath, in: Model.self),
            let values = membership.values as? any Sequence
        {
            var converted: [SnapshotValue] = []
            var convertible = true
            for value in values {
                guard let snapshot = (value as? any SnapshotValueConvertible)?.snapshotValue else {
                    convertible = false
                    break
                }
                converted.append(snapshot)
            }
            if convertible {
                attributeMembership = (name, converted)
                return
            }
        }
        let analysis = PredicateConjuncts.analysis(of: predicate)
        isExact = analysis.isWholePredicate
        let constraints = analysis.constraints
        guard !constraints.isEmpty else { return }
        for constraint in constraints {
            if constraint.relation == .equal, let id = constraint.value as? PersistentIdentifier,
                Self.isIdentifier(constraint.keyPath)
            {
                if identifier != nil && identifier != id { isExact = false }
                identifier = id
            } else if let name = ModelTypeFacts.attributeName(for: constraint.keyPath, in: Model.self),
                let value = (constraint.value as? any SnapshotValueConvertible)?.snapshotValue
            {
                attributeConstraints.append(
                    AttributeConstraint(name: name, relation: constraint.relation, value: value))
            } else {
                isExact = false
            }
        }
    }

    /// Whether `keyPath` reads the model's identifier. `\Model.persistentModelID` written here would go
    /// through the protocol requirement and never equal the predicate's key path, so recognise it by what it
    /// reads from a probe instead.
    private static func isIdentifier(_ keyPath: AnyKeyPath) -> Bool {
        var probe = Model()
        let sentinel = PersistentIdentifier(
            storeIdentifier: "\u{1}probe", entityName: "\u{1}probe", primaryKey: "\u{1}probe")
        probe.persistentModelID = sentinel
        return probe[keyPath: keyPath] as? PersistentIdentifier == sentinel
    }

    /// The identifiers of a captured set or array of identifiers.
    private static func identifierSet(_ values: Any) -> Set<PersistentIdentifier>? {
        if let set = values as? Set<PersistentIdentifier> { return set }
        if let array = values as? [PersistentIdentifier] { return Set(array) }
        return nil
    }
}
