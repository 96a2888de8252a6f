public import Foundation

/// The shared Codable form of every ``StoreHistoryToken``, so that tokens of all backends read alike.
///
/// A token encodes as `{"v":1,"kind":"memory","store":"trips","epoch":"…","seq":42}`:
/// - `v`: the format version, currently 1. A newer version throws rather than guessing.
/// - `kind`: the backend that issued the token, so a token of one backend never decodes as another's.
/// - `store`, `epoch`, `seq`: the token's parts.
///
/// Decoding anything else throws ``DataStoreError/malformedHistoryToken(reason:)``.
public enum HistoryTokenCoding {
    /// The format version this package writes and reads.
    public static let version = 1

    private enum HeaderKey: String, CodingKey {
        case version = "v"
        case kind
    }

    private enum Key: String, CodingKey {
        case store, epoch
        case sequence = "seq"
    }

    /// Writes the `v` and `kind` keys every token form starts with.
    public static func encodeHeader(kind: String, to encoder: any Encoder) throws {
        var header = encoder.container(keyedBy: HeaderKey.self)
        try header.encode(version, forKey: .version)
        try header.encode(kind, forKey: .kind)
    }

    /// Checks the `v` and `kind` keys; throws ``DataStoreError/malformedHistoryToken(reason:)`` for another
    /// version or kind.
    public static func decodeHeader(expectingKind kind: String, from decoder: any Decoder) throws {
        let header = try decoder.container(keyedBy: HeaderKey.self)
        let foundVersion = try header.decode(Int.self, forKey: .version)
        guard foundVersion == version else {
            throw DataStoreError.malformedHistoryToken(
                reason: "token format version \(foundVersion) is not supported (expected \(version))")
        }
        let foundKind = try header.decode(String.self, forKey: .kind)
        guard foundKind == kind else {
            throw DataStoreError.malformedHistoryToken(
                reason: "token of kind '\(foundKind)' where a '\(kind)' token was expected")
        }
    }

    /// Encodes a token's parts under the given backend kind.
    public static func encode(
        _ token: some StoreHistoryToken, kind: String, to encoder: any Encoder
    ) throws {
        try encodeHeader(kind: kind, to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(token.storeIdentifier, forKey: .store)
        try container.encode(token.epoch, forKey: .epoch)
        try container.encode(token.sequence, forKey: .sequence)
    }

    /// Decodes a token's parts, checking the version, kind and value ranges.
    public static func decode<Token: StoreHistoryToken>(
        _: Token.Type, kind: String, from decoder: any Decoder
    ) throws -> Token {
        do {
            try decodeHeader(expectingKind: kind, from: decoder)
            let container = try decoder.container(keyedBy: Key.self)
            let store = try container.decode(String.self, forKey: .store)
            guard !store.isEmpty else {
                throw DataStoreError.malformedHistoryToken(reason: "empty store identifier")
            }
            let epoch = try container.decode(UUID.self, forKey: .epoch)
            let sequence = try container.decode(Int64.self, forKey: .sequence)
            guard sequence >= 0 else {
                throw DataStoreError.malformedHistoryToken(reason: "negative sequence \(sequence)")
            }
            return Token(storeIdentifier: store, epoch: epoch, sequence: sequence)
        } catch let error as DataStoreError {
            throw error
        } catch {
            throw DataStoreError.malformedHistoryToken(reason: String(describing: error))
        }
    }

    /// Decodes a token from JSON bytes, turning every failure (including invalid JSON) into
    /// ``DataStoreError/malformedHistoryToken(reason:)``.
    public static func decode<Token: HistoryToken>(_: Token.Type, fromJSON data: Data) throws(DataStoreError)
        -> Token
    {
        do {
            return try JSONDecoder().decode(Token.self, from: data)
        } catch let error as DataStoreError {
            throw error
        } catch {
            throw .malformedHistoryToken(reason: "not valid token JSON (\(data.count) bytes): \(error)")
        }
    }

    /// The token's JSON as text, as an app would save it; for tools and messages.
    public static func jsonString(_ token: some HistoryToken) throws -> String {
        String(decoding: try JSONEncoder().encode(token), as: UTF8.self)
    }
}
