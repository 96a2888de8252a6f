extension Schema.Attribute {
    /// Options that change how a store treats an attribute, named as in SwiftData.
    public struct Option: OptionSet, Hashable, Codable, Sendable {
        /// The bit mask.
        public var rawValue: Int

        /// Creates options from a bit mask.
        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// No two instances of the entity share a value. Inserting a model whose value is taken updates the
        /// existing model instead (an *upsert*), and history records an update, not a second insert.
        public static let unique = Option(rawValue: 1 << 0)

        /// When a model is deleted, its value is kept in the delete change's tombstone.
        public static let preserveValueOnDeletion = Option(rawValue: 1 << 1)
    }
}
