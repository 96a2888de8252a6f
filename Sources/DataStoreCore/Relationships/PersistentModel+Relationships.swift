extension PersistentModel {
    /// The relationships among ``schemaAttributes``, as the schema records them. An inverse declared only
    /// on the destination's side is recorded on this side too.
    package static var schemaRelationships: [Schema.Relationship] {
        schemaAttributes.compactMap { attribute in
            guard let relationship = attribute.relationship else { return nil }
            return Schema.Relationship(
                name: attribute.name, destination: relationship.destination.entityName,
                isToMany: relationship.isToMany, deleteRule: relationship.deleteRule,
                inverse: inverseName(of: attribute))
        }
    }

    /// The name of the inverse of `attribute`: declared here, or the destination relationship declaring this
    /// one as its inverse, or the one inferred when neither side declares it.
    private static func inverseName(of attribute: ModelAttribute<Self>) -> String? {
        guard let relationship = attribute.relationship else { return nil }
        return relationship.destination.relationshipName(
            keyPath: relationship.inverse, orInverseOf: attribute.keyPath)
            ?? inferredInverse(of: attribute)?.name
    }

    /// The key paths this type's relationships declare as their inverses.
    static var declaredInverses: [AnyKeyPath] {
        schemaAttributes.compactMap { $0.relationship?.inverse }
    }

    /// This type's relationships to `entity` that declare no inverse and that no relationship of `entity`
    /// declares as its inverse (`declaredBack` holds those declarations).
    static func undeclaredRelationships(to entity: String, declaredBack: [AnyKeyPath])
        -> [(name: String, keyPath: AnyKeyPath)]
    {
        schemaAttributes.compactMap { attribute in
            guard let relationship = attribute.relationship, relationship.inverse == nil,
                relationship.destination.entityName == entity,
                !declaredBack.contains(attribute.keyPath)
            else { return nil }
            return (attribute.name, attribute.keyPath)
        }
    }

    /// What the pairing of `attribute` with the destination's relationships would be when neither side
    /// declares an inverse, as SwiftData infers it: this type's and the destination's undeclared relationships
    /// to each other (never a relationship to the model's own entity, which is one-directional).
    static func undeclaredPairing(of attribute: ModelAttribute<Self>) -> (
        mine: [(name: String, keyPath: AnyKeyPath)], theirs: [(name: String, keyPath: AnyKeyPath)]
    )? {
        guard let relationship = attribute.relationship, relationship.inverse == nil else { return nil }
        let destination = relationship.destination
        guard destination.entityName != entityName,
            !destination.declaredInverses.contains(attribute.keyPath)
        else { return nil }
        return (
            undeclaredRelationships(to: destination.entityName, declaredBack: destination.declaredInverses),
            destination.undeclaredRelationships(to: entityName, declaredBack: declaredInverses)
        )
    }

    /// The inverse inferred for `attribute`: the destination's one undeclared relationship back to this type,
    /// when this type has exactly one undeclared relationship to the destination.
    static func inferredInverse(of attribute: ModelAttribute<Self>) -> (name: String, keyPath: AnyKeyPath)? {
        guard let pairing = undeclaredPairing(of: attribute), pairing.mine.count == 1,
            pairing.theirs.count == 1
        else { return nil }
        return pairing.theirs[0]
    }

    /// The name of this type's relationship at `keyPath`, or else of the one whose inverse is `inverseOf`.
    static func relationshipName(keyPath: AnyKeyPath?, orInverseOf inverseOf: AnyKeyPath) -> String? {
        if let keyPath { return schemaAttribute(for: keyPath)?.name }
        return schemaAttributes.first { $0.relationship?.inverse == inverseOf }?.name
    }

    /// The model types this type's relationships point to.
    package static var relatedModelTypes: [any PersistentModel.Type] {
        schemaAttributes.compactMap { $0.relationship?.destination }
    }

    /// Checks the relationship declarations: each property is a `@Relationship`, each inverse is a
    /// relationship of the destination that points back (and, when both sides name an inverse, they name
    /// each other), and relationships that declare no inverse pair unambiguously if at all.
    ///
    /// - Throws: ``DataStoreError/invalidRelationship(entity:relationship:identifier:reason:)``.
    package static func checkRelationships() throws(DataStoreError) {
        for attribute in schemaAttributes {
            guard let relationship = attribute.relationship else { continue }
            guard relationship.identifiers(Self()) != nil else {
                throw .invalidRelationship(
                    entity: entityName, relationship: attribute.name,
                    reason: "the property is not declared with @Relationship")
            }
            guard let inverse = relationship.inverse else {
                // Undeclared on both sides: inferred when it pairs one relationship each way, refused when
                // several could pair.
                if let pairing = undeclaredPairing(of: attribute), !pairing.theirs.isEmpty,
                    pairing.mine.count > 1 || pairing.theirs.count > 1
                {
                    let names =
                        (pairing.mine.map { "\(entityName).\($0.name)" }
                        + pairing.theirs.map { "\(relationship.destination.entityName).\($0.name)" })
                        .joined(separator: ", ")
                    throw .invalidRelationship(
                        entity: entityName, relationship: attribute.name,
                        reason:
                            "its inverse is ambiguous (\(names) point at each other and none declares an inverse): "
                            + "declare it with inverse:")
                }
                continue
            }
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
