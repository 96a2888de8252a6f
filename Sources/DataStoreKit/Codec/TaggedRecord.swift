/// The `{"body":{…},"type":"…"}` shape every file-store record has, so each store's record enum only maps its
/// cases to type names.
public enum TaggedRecord {
    private enum Key: String, CodingKey {
        case type, body
    }

    /// Encodes `body` under `type`.
    public static func encode(type: String, body: some Encodable, to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(type, forKey: .type)
        try container.encode(body, forKey: .body)
    }

    /// A decoded record's type name, and its body on demand.
    public struct Decoded {
        private let container: KeyedDecodingContainer<Key>
        /// The record's type name.
        public let type: String

        /// Reads the type name.
        public init(from decoder: any Decoder) throws {
            container = try decoder.container(keyedBy: Key.self)
            type = try container.decode(String.self, forKey: .type)
        }

        /// Decodes the body as `Body`.
        public func body<Body: Decodable>(_: Body.Type) throws -> Body {
            try container.decode(Body.self, forKey: .body)
        }

        /// The error for a type name the caller does not know.
        public func unknownType() -> any Error {
            DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "unknown record type '\(type)'")
        }
    }
}
