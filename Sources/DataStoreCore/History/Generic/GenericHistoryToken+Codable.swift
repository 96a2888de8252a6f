extension GenericHistoryToken {
    /// Encodes the shared token form (see ``HistoryTokenCoding``) with the backend's kind.
    public func encode(to encoder: any Encoder) throws {
        try HistoryTokenCoding.encode(self, kind: Kind.name, to: encoder)
    }

    /// Decodes the shared token form; anything else, another kind included, throws
    /// ``DataStoreError/malformedHistoryToken(reason:)``.
    public init(from decoder: any Decoder) throws {
        self = try HistoryTokenCoding.decode(Self.self, kind: Kind.name, from: decoder)
    }
}

extension GenericHistoryToken: StringFormHistoryToken {
    package static var kindName: String { Kind.name }
}
