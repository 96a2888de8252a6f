public import DataStoreCore
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

/// What ``ModelPredicateBounds`` holds (see it for each property), in a type that is not generic.
struct PredicateBoundValues: Sendable {
    var identifier: PersistentIdentifier?
    var identifiers: Set<PersistentIdentifier>?
    var attributeMembership: (name: String, values: [SnapshotValue])?
    var attributeConstraints: [ModelAttributeConstraint] = []
    var isExact = true
}

/// The bounds a fetch predicate places on a model's identifier and attributes, for stores to seek.
///
/// `#Predicate<Reading> { $0.timestamp >= from && $0.timestamp < to }` yields two constraints on the
/// `timestamp` attribute; `#Predicate<Trip> { $0.persistentModelID == id }` yields ``identifier``.
public struct ModelPredicateBounds<Model: PersistentModel>: Sendable {
    /// One comparison of a named attribute with a persisted value.
    public typealias AttributeConstraint = ModelAttributeConstraint

    /// The bounds themselves, in a type that is not generic: the stores' fetch code, which the compiler does
    /// not specialise for the model, reads them without looking up this type's metadata at each access.
    var values = PredicateBoundValues()

    /// The one identifier every match has, when the predicate requires `persistentModelID == id`.
    public var identifier: PersistentIdentifier? {
        get { values.identifier }
        set { values.identifier = newValue }
    }
    /// The identifiers every match is one of, when the whole predicate is `ids.contains($0.persistentModelID)`
    /// (how a context loads the models a fetch's relationships refer to).
    public var identifiers: Set<PersistentIdentifier>? {
        get { values.identifiers }
        set { values.identifiers = newValue }
    }
    /// The attribute and values every match's value is one of, when the whole predicate is
    /// `values.contains($0.attribute)` (the `IN` of SQL).
    public var attributeMembership: (name: String, values: [SnapshotValue])? {
        get { values.attributeMembership }
        set { values.attributeMembership = newValue }
    }
    /// The comparisons on attributes that every match satisfies.
    public var attributeConstraints: [AttributeConstraint] {
        get { values.attributeConstraints }
        set { values.attributeConstraints = newValue }
    }
    /// Whether ``identifier`` and ``attributeConstraints`` (or ``identifiers``, or ``attributeMembership``) are
    /// the whole predicate: a model that satisfies
    /// them all (compared as `SnapshotValue/satisfies(_:_:)` does) matches, so a store that applies them
    /// natively need not evaluate the predicate in Swift. `true` without a predicate.
    public var isExact: Bool {
        get { values.isExact }
        set { values.isExact = newValue }
    }

    /// Reads the bounds of a predicate; `nil` has none.
    public init(_ predicate: Predicate<Model>?) {
        if let predicate { values = Self.analyse(predicate) }
    }

    private static func analyse(_ predicate: Predicate<Model>) -> PredicateBoundValues {
        var bounds = PredicateBoundValues()
        // Read through the expression type's cached reader: no cast to an existential per predicate.
        let membership = PredicateConjuncts.membership(of: predicate.expression)
        if let membership, let members = identifierSet(membership.values), isIdentifier(membership.keyPath) {
            bounds.identifiers = members
            return bounds
        }
        if let membership, let name = ModelTypeFacts.attributeName(for: membership.keyPath, in: Model.self),
            let values = membership.values as? any Sequence
        {
            var converted: [SnapshotValue] = []
            var convertible = true
            for value in values {
                guard let snapshot = SnapshotValue.ofConstant(value) else {
                    convertible = false
                    break
                }
                converted.append(snapshot)
            }
            if convertible {
                bounds.attributeMembership = (name, converted)
                return bounds
            }
        }
        let analysis = PredicateConjuncts.analysis(of: predicate)
        bounds.isExact = analysis.isWholePredicate
        for constraint in analysis.constraints {
            // The reader converted the constant by its static type, or a cast does it here.
            let value =
                constraint.snapshotValue ?? SnapshotValue.ofConstant(constraint.value)
            if constraint.relation == .equal, case .identifier(let id) = value,
                isIdentifier(constraint.keyPath)
            {
                if bounds.identifier != nil && bounds.identifier != id { bounds.isExact = false }
                bounds.identifier = id
            } else if let name = ModelTypeFacts.attributeName(for: constraint.keyPath, in: Model.self),
                let value
            {
                bounds.attributeConstraints.append(
                    AttributeConstraint(name: name, relation: constraint.relation, value: value))
            } else {
                bounds.isExact = false
            }
        }
        return bounds
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
