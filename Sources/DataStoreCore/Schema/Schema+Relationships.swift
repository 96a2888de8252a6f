extension Schema {
    /// Checks that every relationship points to an entity of this schema, holds its identifiers in an
    /// attribute of the same name, and that each inverse is a relationship of the destination pointing back.
    /// Stores call it when they open, so that a save never has to apply a rule it cannot follow.
    ///
    /// - Throws: ``DataStoreError/invalidRelationship(entity:relationship:identifier:reason:)`` naming the
    ///   first relationship at fault.
    public func validateRelationships() throws(DataStoreError) {
        for entity in entities {
            for relationship in entity.relationships {
                func refuse(_ reason: String) -> DataStoreError {
                    .invalidRelationship(entity: entity.name, relationship: relationship.name, reason: reason)
                }
                guard entity.attribute(named: relationship.name) != nil else {
                    throw refuse("the entity has no attribute '\(relationship.name)' to hold it")
                }
                guard let destination = self.entity(named: relationship.destination) else {
                    throw refuse("its destination '\(relationship.destination)' is not in the store's schema")
                }
                guard let inverse = relationship.inverse else { continue }
                guard let back = destination.relationship(named: inverse),
                    back.destination == entity.name
                else {
                    throw refuse(
                        "its inverse '\(relationship.destination).\(inverse)' is not a relationship pointing back to "
                            + entity.name)
                }
            }
        }
    }
}
