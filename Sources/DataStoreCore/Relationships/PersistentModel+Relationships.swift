extension PersistentModel {
    /// The relationships among ``schemaAttributes``, as the schema records them. An inverse declared only
    /// on the destination's side is recorded on this side too.
    static var schemaRelationships: [Schema.Relationship] {
        schemaAttributes.compactMap { attribute in
            guard let relationship = attribute.relationship else { return nil }
            return Schema.Relationship(
                name: attribute.name, destination: relationship.destination.entityName,
                isToMany: relationship.isToMany, deleteRule: relationship.deleteRule,
                inverse: inverseName(of: attribute))
        }
    }

    /// The name of the inverse of `attribute`: declared here, or the destination relationship declaring this
    /// one as its inverse.
    private static func inverseName(of attribute: ModelAttribute<Self>) -> String? {
        guard let relationship = attribute.relationship else { return nil }
        return relationship.destination.relationshipName(
            keyPath: relationship.inverse, orInverseOf: attribute.keyPath)
    }

    /// The name of this type's relationship at `keyPath`, or else of the one whose inverse is `inverseOf`.
    static func relationshipName(keyPath: AnyKeyPath?, orInverseOf inverseOf: AnyKeyPath) -> String? {
        if let keyPath { return schemaAttribute(for: keyPath)?.name }
        return schemaAttributes.first { $0.relationship?.inverse == inverseOf }?.name
    }

    /// The model types this type's relationships point to.
    static var relatedModelTypes: [any PersistentModel.Type] {
        schemaAttributes.compactMap { $0.relationship?.destination }
    }

    /// Checks the relationship declarations: each property is a `@Relationship`, and each inverse is a
    /// relationship of the destination that points back (and, when both sides name an inverse, they name
    /// each other).
    ///
    /// - Throws: ``DataStoreError/invalidRelationship(entity:relationship:identifier:reason:)``.
    static func checkRelationships() throws(DataStoreError) {
        for attribute in schemaAttributes {
            guard let relationship = attribute.relationship else { continue }
            guard relationship.identifiers(Self()) != nil else {
                throw .invalidRelationship(
                    entity: entityName, relationship: attribute.name,
                    reason: "the property is not declared with @Relationship")
            }
            guard let inverse = relationship.inverse else { continue }
            try relationship.destination.checkInverse(
                inverse, pointsBackTo: Self.self, relationship: attribute.name, keyPath: attribute.keyPath)
        }
    }

    /// Throws unless this type's relationship at `inverse` points to `owner` and, when it declares an
    /// inverse itself, names `keyPath`.
    static func checkInverse<Owner: PersistentModel>(
        _ inverse: AnyKeyPath, pointsBackTo owner: Owner.Type, relationship: String, keyPath: AnyKeyPath
    ) throws(DataStoreError) {
        guard let attribute = schemaAttribute(for: inverse), let other = attribute.relationship else {
            throw .invalidRelationship(
                entity: Owner.entityName, relationship: relationship,
                reason:
                    "its inverse \(inverse) is not a relationship declared in \(entityName).schemaAttributes")
        }
        guard other.destination.entityName == Owner.entityName else {
            throw .invalidRelationship(
                entity: Owner.entityName, relationship: relationship,
                reason:
                    "its inverse \(entityName).\(attribute.name) points to \(other.destination.entityName), "
                    + "not back to \(Owner.entityName)")
        }
        if let back = other.inverse, back != keyPath {
            throw .invalidRelationship(
                entity: Owner.entityName, relationship: relationship,
                reason: "its inverse \(entityName).\(attribute.name) names another inverse, \(back)")
        }
    }
}
