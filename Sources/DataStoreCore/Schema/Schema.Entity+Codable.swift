extension Schema.Entity {
    private enum CodingKeys: String, CodingKey {
        case name, attributes, compoundUniqueConstraints, indexes, relationships
    }

    /// Decodes an entity; `compoundUniqueConstraints`, `indexes` and `relationships` may be absent (schemas
    /// written before they existed).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name),
            attributes: try container.decode([Schema.Attribute].self, forKey: .attributes),
            compoundUniqueConstraints: try container.decodeIfPresent(
                [[String]].self, forKey: .compoundUniqueConstraints)
                ?? [],
            indexes: try container.decodeIfPresent([[String]].self, forKey: .indexes) ?? [],
            relationships: try container.decodeIfPresent([Schema.Relationship].self, forKey: .relationships)
                ?? [])
    }

    /// Encodes the entity.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(attributes, forKey: .attributes)
        if !compoundUniqueConstraints.isEmpty {
            try container.encode(compoundUniqueConstraints, forKey: .compoundUniqueConstraints)
        }
        if !indexes.isEmpty {
            try container.encode(indexes, forKey: .indexes)
        }
        if !relationships.isEmpty {
            try container.encode(relationships, forKey: .relationships)
        }
    }
}
