extension Schema {
    /// One attribute of an entity: a name and options, and what a store needs to migrate it: the kind of
    /// value it holds, the name it had before a rename, and the value existing rows get when it is added.
    public struct Attribute: Hashable, Codable, Sendable {
        /// The attribute's name, unique in its entity.
        public var name: String
        /// The attribute's options.
        public var options: Option
        /// The kind of value it holds, as ``SnapshotValueConvertible/snapshotValueKind`` spells it
        /// (`"string"`, `"integer?"`, `"[date]"`); `nil` when unknown, which matches any kind.
        public var valueKind: String?
        /// The name the attribute had in an earlier version of the schema, as SwiftData's
        /// `@Attribute(originalName:)`: a store that holds `originalName` and not `name` renames it on opening.
        public var originalName: String?
        /// The value existing rows get when the attribute is added to an entity that already holds rows: the
        /// property's value in a model made by `init()`. `nil` means `null`.
        public var defaultValue: SnapshotValue?

        /// Creates an attribute.
        public init(
            name: String, options: Option = [], valueKind: String? = nil, originalName: String? = nil,
            defaultValue: SnapshotValue? = nil
        ) {
            self.name = name
            self.options = options
            self.valueKind = valueKind
            self.originalName = originalName
            self.defaultValue = defaultValue
        }

        /// Whether values of `stored` can be read as this attribute's kind: the same kind, either one unknown,
        /// or this one the optional form of `stored` (`"string"` → `"string?"`).
        public func acceptsValues(ofKind stored: String?) -> Bool {
            guard let stored, let valueKind, stored != "any", valueKind != "any" else { return true }
            return stored == valueKind || stored + "?" == valueKind
        }
    }
}
