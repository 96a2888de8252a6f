extension Schema {
    /// One relationship of an entity, as a store enforces it: where it points, whether it holds one model or
    /// many, its inverse, and what deleting the model does to the models it relates to.
    ///
    /// A relationship is also one of the entity's ``Entity/attributes`` (its value is the related identifier,
    /// or the list of them), so stores persist, migrate and record it like any attribute; this record adds
    /// what a save needs to apply the ``DeleteRule``.
    public struct Relationship: Hashable, Codable, Sendable {
        /// The relationship's name: the name of the attribute that holds its identifiers.
        public var name: String
        /// The entity the relationship points to.
        public var destination: String
        /// Whether it holds a list of models (`[Model]`) rather than at most one (`Model?`).
        public var isToMany: Bool
        /// What deleting a model does to the models this relationship holds.
        public var deleteRule: DeleteRule
        /// The relationship of ``destination`` that points back, if there is one. A save keeps both sides
        /// consistent: deleting a model removes it from the inverse side of the models it related to.
        public var inverse: String?

        /// Creates a relationship.
        public init(
            name: String, destination: String, isToMany: Bool, deleteRule: DeleteRule = .nullify,
            inverse: String? = nil
        ) {
            self.name = name
            self.destination = destination
            self.isToMany = isToMany
            self.deleteRule = deleteRule
            self.inverse = inverse
        }
    }
}

extension Schema.Relationship {
    /// What deleting a model does to the models one of its relationships holds, named as in SwiftData.
    public enum DeleteRule: String, Hashable, Codable, Sendable {
        /// The related models stay; the deleted model is removed from their inverse relationship (the
        /// default, as in SwiftData).
        case nullify
        /// The related models are deleted too, in the same transaction.
        case cascade
        /// The delete is refused while the relationship holds any model.
        case deny
        /// Nothing happens to the related models: their inverse keeps the deleted identifier, which then reads
        /// as no model.
        case noAction
    }
}
