public import Foundation

/// The bounds a fetch predicate places on a model's identifier and attributes, for stores to seek.
///
/// `#Predicate<Reading> { $0.timestamp >= from && $0.timestamp < to }` yields two constraints on the
/// `timestamp` attribute; `#Predicate<Trip> { $0.persistentModelID == id }` yields ``identifier``.
public struct ModelPredicateBounds<Model: PersistentModel>: Sendable {
    /// One comparison of a named attribute with a persisted value.
    public struct AttributeConstraint: Hashable, Sendable {
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

    /// The one identifier every match has, when the predicate requires `persistentModelID == id`.
    public var identifier: PersistentIdentifier?
    /// The comparisons on attributes that every match satisfies.
    public var attributeConstraints: [AttributeConstraint] = []

    /// Reads the bounds of a predicate; `nil` has none.
    public init(_ predicate: Predicate<Model>?) {
        guard let predicate else { return }
        for constraint in PredicateConjuncts.constraints(of: predicate) {
            if constraint.keyPath == \Model.persistentModelID, constraint.relation == .equal {
                identifier = constraint.value as? PersistentIdentifier
            } else if let attribute = Model.schemaAttribute(for: constraint.keyPath),
                let value = attribute.snapshotValue(ofConstant: constraint.value)
            {
                attributeConstraints.append(
                    AttributeConstraint(name: attribute.name, relation: constraint.relation, value: value))
            }
        }
    }
}
