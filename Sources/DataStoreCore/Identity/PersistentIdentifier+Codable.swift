extension PersistentIdentifier {
    enum CodingKeys: String, CodingKey {
        case storeIdentifier = "store"
        case entityName = "entity"
        case primaryKey = "key"
    }

    /// Decodes `{"store":…,"entity":…,"key":…}`; without `store`, the identifier is unresolved.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            storeIdentifier: try container.decodeIfPresent(String.self, forKey: .storeIdentifier),
            entityName: try container.decode(String.self, forKey: .entityName),
            primaryKey: try container.decode(String.self, forKey: .primaryKey))
    }

    /// Encodes `{"store":…,"entity":…,"key":…}`, without `store` while unresolved.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(storeIdentifier, forKey: .storeIdentifier)
        try container.encode(entityName, forKey: .entityName)
        try container.encode(primaryKey, forKey: .primaryKey)
    }
}
