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

        /// History records the value the attribute (or relationship) had before each change: an update's
        /// change carries it when the update changed the attribute, a delete's change carries it always. What
        /// undo, an audit log and a sync conflict resolver need to answer "what was this before?". An addition
        /// of this package, not a SwiftData option; adding or removing it needs no migration.
        public static let preservePreviousValue = Option(rawValue: 1 << 3)

        /// The value is any `Codable` type, stored as one opaque value (its JSON encoding, as ``SnapshotValue/data(_:)``).
        /// Stores cannot look inside it: a predicate or sort that reads it is refused
        /// (``DataStoreError/Code/invalidPredicate``, ``DataStoreError/Code/unsupportedFeature``), and a change of
        /// its shape is not migrated (old values that no longer decode throw `attributeTypeMismatch` when read).
        public static let codable = Option(rawValue: 1 << 2)
    }
}
