extension Schema {
    /// One entity: a name and its attributes.
    public struct Entity: Hashable, Codable, Sendable {
        /// The entity's name, unique in the schema.
        public var name: String
        /// The attributes, in declaration order.
        public var attributes: [Attribute]
        /// Sets of attributes whose values are unique *together* (SwiftData's `#Unique`): an insert whose
        /// values of one set are taken updates the holder. A single `.unique` attribute is a set of one.
        public var compoundUniqueConstraints: [[String]]
        /// Attribute lists stores index (SwiftData's `#Index`).
        public var indexes: [[String]]
        /// The relationships; each is also one of ``attributes``, under the same name.
        public var relationships: [Relationship]

        /// Creates an entity.
        public init(
            name: String, attributes: [Attribute], compoundUniqueConstraints: [[String]] = [],
            indexes: [[String]] = [], relationships: [Relationship] = []
        ) {
            self.name = name
            self.attributes = attributes
            self.compoundUniqueConstraints = compoundUniqueConstraints
            self.indexes = indexes
            self.relationships = relationships
        }

        /// The relationship with the given name, if the entity has it.
        public func relationship(named name: String) -> Relationship? {
            relationships.first { $0.name == name }
        }

        /// The attributes an equality lookup can be answered for from an index: the first attribute of every
        /// index and every unique constraint.
        public var indexedAttributeNames: Set<String> {
            Set((uniqueConstraints + indexes).compactMap(\.first))
        }

        /// The attribute with the given name, if the entity has it.
        public func attribute(named name: String) -> Attribute? {
            attributes.first { $0.name == name }
        }

        /// The names of the attributes marked ``Attribute/Option/unique``.
        public var uniqueAttributeNames: [String] {
            attributes.filter { $0.options.contains(.unique) }.map(\.name)
        }

        /// Every uniqueness constraint: each `.unique` attribute alone, then each compound set.
        public var uniqueConstraints: [[String]] {
            uniqueAttributeNames.map { [$0] } + compoundUniqueConstraints
        }

        /// The entity as a store lays out its rows (see ``Schema/storageLayout``).
        public var storageLayout: Entity {
            var entity = self
            entity.attributes = attributes.map {
                Attribute(name: $0.name, options: $0.options, valueKind: $0.valueKind)
            }
            return entity
        }

        /// The names of the attributes marked ``Attribute/Option/preserveValueOnDeletion``.
        public var preservedAttributeNames: [String] {
            attributes.filter { $0.options.contains(.preserveValueOnDeletion) }.map(\.name)
        }

        /// The names of the attributes and relationships marked ``Attribute/Option/preservePreviousValue``.
        public var previousValueAttributeNames: [String] {
            attributes.filter { $0.options.contains(.preservePreviousValue) }.map(\.name)
        }
    }
}
