extension GenericHistoryChange: Codable {
    private enum CodingKeys: String, CodingKey {
        case changedPersistentIdentifier, changeIdentifier, transactionIdentifier, kind, updatedAttributes
        case tombstone, values, previousValues
    }

    /// Decodes the keyed form, `values` as an object of name to value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            changedPersistentIdentifier: try container.decode(
                PersistentIdentifier.self, forKey: .changedPersistentIdentifier),
            changeIdentifier: try container.decode(Int64.self, forKey: .changeIdentifier),
            transactionIdentifier: try container.decode(Int64.self, forKey: .transactionIdentifier),
            kind: try container.decode(HistoryChangeKind.self, forKey: .kind),
            updatedAttributes: try container.decodeIfPresent([String].self, forKey: .updatedAttributes) ?? [],
            tombstone: try container.decodeIfPresent([String: SnapshotValue].self, forKey: .tombstone),
            values: try container.decodeIfPresent([String: SnapshotValue].self, forKey: .values) ?? [:],
            previousValues: try container.decodeIfPresent(
                [String: SnapshotValue].self, forKey: .previousValues))
    }

    /// Encodes the keyed form, `values` as an object of name to value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(changedPersistentIdentifier, forKey: .changedPersistentIdentifier)
        try container.encode(changeIdentifier, forKey: .changeIdentifier)
        try container.encode(transactionIdentifier, forKey: .transactionIdentifier)
        try container.encode(kind, forKey: .kind)
        try container.encode(updatedAttributes, forKey: .updatedAttributes)
        try container.encodeIfPresent(tombstone, forKey: .tombstone)
        try container.encode(values, forKey: .values)
        try container.encodeIfPresent(previousValues, forKey: .previousValues)
    }
}
