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

    private enum Key: String, CodingKey {
        case version = "v"
        case kind, store, epoch
        case sequence = "seq"
    }

    /// Encodes a token's parts under the given backend kind.
    public static func encode(
        _ token: some StoreHistoryToken, kind: String, to encoder: any Encoder
    ) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(version, forKey: .version)
        try container.encode(kind, forKey: .kind)
        try container.encode(token.storeIdentifier, forKey: .store)
        try container.encode(token.epoch, forKey: .epoch)
        try container.encode(token.sequence, forKey: .sequence)
    }

    /// Decodes a token's parts, checking the version, kind and value ranges.
    public static func decode<Token: StoreHistoryToken>(
        _: Token.Type, kind: String, from decoder: any Decoder
    ) throws -> Token {
        do {
            let container = try decoder.container(keyedBy: Key.self)
            let version = try container.decode(Int.self, forKey: .version)
            guard version == Self.version else {
                throw DataStoreError.malformedHistoryToken(
                    reason: "token format version \(version) is not supported (expected \(Self.version))")
            }
            let foundKind = try container.decode(String.self, forKey: .kind)
            guard foundKind == kind else {
                throw DataStoreError.malformedHistoryToken(
                    reason: "token of kind '\(foundKind)' where a '\(kind)' token was expected")
            }
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
}
