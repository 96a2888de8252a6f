extension Schema {
    /// One attribute of an entity: a name and options.
    public struct Attribute: Hashable, Codable, Sendable {
        /// The attribute's name, unique in its entity.
        public var name: String
        /// The attribute's options.
        public var options: Option

        /// Creates an attribute.
        public init(name: String, options: Option = []) {
            self.name = name
            self.options = options
        }
    }
}
