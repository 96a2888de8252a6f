extension Schema {
    /// One entity: a name and its attributes.
    public struct Entity: Hashable, Codable, Sendable {
        /// The entity's name, unique in the schema.
        public var name: String
        /// The attributes, in declaration order.
        public var attributes: [Attribute]

        /// Creates an entity.
        public init(name: String, attributes: [Attribute]) {
            self.name = name
            self.attributes = attributes
        }

        /// The attribute with the given name, if the entity has it.
        public func attribute(named name: String) -> Attribute? {
            attributes.first { $0.name == name }
        }

        /// The names of the attributes marked ``Attribute/Option/unique``.
        public var uniqueAttributeNames: [String] {
            attributes.filter { $0.options.contains(.unique) }.map(\.name)
        }

        /// The names of the attributes marked ``Attribute/Option/preserveValueOnDeletion``.
        public var preservedAttributeNames: [String] {
            attributes.filter { $0.options.contains(.preserveValueOnDeletion) }.map(\.name)
        }
    }
}
