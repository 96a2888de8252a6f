public import Foundation

/// The shared Codable form of every ``StoreHistoryToken``, so that tokens of all backends read alike.
///
/// A token encodes as one JSON string, `"v2:memory:trips:5C1B1D0E-…:42"`: the format version, the backend
/// `kind` (so a token of one backend never decodes as another's), then the store identifier
/// (percent-encoded), the epoch and the sequence. A string has no keys to reorder and nothing to escape, so
/// equal tokens encode to equal bytes whatever the encoder's settings (sorted keys or not, escaped slashes or
/// not), which a keyed JSON object cannot promise.
///
/// Version 1, the object `{"v":1,"kind":"memory","store":"trips","epoch":"…","seq":42}` that earlier releases
/// wrote, still decodes. Anything else throws ``DataStoreError/malformedHistoryToken(reason:)``.
public enum HistoryTokenCoding {
    /// The format version this package writes.
    public static let version = 2
    /// The earlier, object form, still read.
    static let legacyVersion = 1

    private enum HeaderKey: String, CodingKey {
        case version = "v"
        case kind
    }

    private enum Key: String, CodingKey {
        case store, epoch
        case sequence = "seq"
    }

    /// Checks the version-1 object's `v` and `kind` keys; throws ``DataStoreError/malformedHistoryToken(reason:)`` for another
    /// version or kind.
    public static func decodeHeader(expectingKind kind: String, from decoder: any Decoder) throws {
        let header = try decoder.container(keyedBy: HeaderKey.self)
        let foundVersion = try header.decode(Int.self, forKey: .version)
        guard foundVersion == legacyVersion else {
            throw DataStoreError.malformedHistoryToken(
                reason: "token format version \(foundVersion) is not supported (expected \(version))")
        }
        let foundKind = try header.decode(String.self, forKey: .kind)
        guard foundKind == kind else {
            throw DataStoreError.malformedHistoryToken(
                reason: "token of kind '\(foundKind)' where a '\(kind)' token was expected")
        }
    }

    /// Encodes a token's parts under the given backend kind, as one string.
    public static func encode(
        _ token: some StoreHistoryToken, kind: String, to encoder: any Encoder
    ) throws {
        var container = encoder.singleValueContainer()
        try container.encode(canonical(token, kind: kind))
    }

    /// The version-2 string of a store token: `v2:kind:store:epoch:sequence`.
    private static func canonical(_ token: some StoreHistoryToken, kind: String) -> String {
        canonical(
            kind: kind, [escape(token.storeIdentifier), token.epoch.uuidString, String(token.sequence)])
    }

    /// `v2:kind:field:field…`.
    package static func canonical(kind: String, _ fields: [String]) -> String {
        (["v\(version)", escape(kind)] + fields).joined(separator: ":")
    }

    /// The fields after `v2:kind:`, or a malformed-token error naming what is wrong.
    package static func fields(of string: String, kind: String) throws(DataStoreError) -> [String] {
        let parts = string.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, parts[0] == "v\(version)" else {
            throw .malformedHistoryToken(reason: "'\(string)' is not a version-\(version) token")
        }
        guard unescape(parts[1]) == kind else {
            throw .malformedHistoryToken(
                reason:
                    "token of kind '\(unescape(parts[1]) ?? parts[1])' where a '\(kind)' token was expected")
        }
        return Array(parts.dropFirst(2))
    }

    /// Store identifiers keep letters, digits and `-_.~`; everything else is percent-encoded, so the
    /// separators never appear inside a field and no encoder escapes anything.
    package static func escape(_ text: String) -> String {
        // Most identifiers need nothing escaped: checked byte by byte, without the character set a
        // percent-encoding builds (a sync encodes a token per transaction it pushes).
        if text.utf8.allSatisfy(isUnescaped) { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if isUnescaped(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `byte` stands for itself in a token field: an ASCII letter or digit, or one of `-_.~`.
    private static func isUnescaped(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
            UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    static func unescape(_ text: String) -> String? {
        text.removingPercentEncoding
    }

    /// The parts of a store token's fields: store, epoch, sequence, checked.
    package static func parts(of fields: [String]) throws(DataStoreError) -> (
        store: String, epoch: UUID, sequence: Int64
    ) {
        guard fields.count == 3, let store = unescape(fields[0]), !store.isEmpty else {
            throw .malformedHistoryToken(reason: "a store token has a store, an epoch and a sequence")
        }
        guard let epoch = UUID(uuidString: fields[1]) else {
            throw .malformedHistoryToken(reason: "'\(fields[1])' is not an epoch")
        }
        guard let sequence = Int64(fields[2]), sequence >= 0 else {
            throw .malformedHistoryToken(reason: "'\(fields[2])' is not a sequence")
        }
        return (store, epoch, sequence)
    }

    /// Decodes a token's parts, checking the version, kind and value ranges: the version-2 string, or the
    /// version-1 object.
    public static func decode<Token: StoreHistoryToken>(
        _: Token.Type, kind: String, from decoder: any Decoder
    ) throws -> Token {
        if let string = try? decoder.singleValueContainer().decode(String.self) {
            let parts = try parts(of: fields(of: string, kind: kind))
            return Token(storeIdentifier: parts.store, epoch: parts.epoch, sequence: parts.sequence)
        }
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
        // A store token's JSON is one plain string: read without a JSONDecoder, which cost a tenth of a sync
        // pull's CPU (it decodes its cursors on every pull).
        if let stringForm = Token.self as? any StringFormHistoryToken.Type, let text = plainJSONString(data) {
            return try decode(stringForm, fromString: text) as! Token
        }
        do {
            return try JSONDecoder().decode(Token.self, from: data)
        } catch let error as DataStoreError {
            throw error
        } catch {
            throw .malformedHistoryToken(reason: "not valid token JSON (\(data.count) bytes): \(error)")
        }
    }

    /// The text of a JSON string of printable ASCII with nothing escaped and nothing around it (`"v2:…"`, as
    /// this package writes tokens), or `nil` for anything else (which the JSONDecoder then reads, or rejects).
    private static func plainJSONString(_ data: Data) -> String? {
        let quote = UInt8(ascii: "\"")
        let backslash = UInt8(ascii: "\\")
        let inner = data.dropFirst().dropLast()
        guard data.count >= 2, data.first == quote, data.last == quote,
            inner.allSatisfy({ (0x20..<0x7F).contains($0) && $0 != quote && $0 != backslash })
        else { return nil }
        return String(decoding: inner, as: UTF8.self)
    }

    private static func decode<Token: StringFormHistoryToken>(_: Token.Type, fromString text: String)
        throws(DataStoreError) -> Token
    {
        let parts = try parts(of: fields(of: text, kind: Token.kindName))
        return Token(storeIdentifier: parts.store, epoch: parts.epoch, sequence: parts.sequence)
    }

    /// The token's JSON as text, as an app would save it; for tools and messages.
    public static func jsonString(_ token: some HistoryToken) throws -> String {
        String(decoding: try JSONEncoder().encode(token), as: UTF8.self)
    }
}

/// A store token whose JSON is the version-2 string of its kind, which ``HistoryTokenCoding/decode(_:fromJSON:)``
/// reads without a JSONDecoder.
package protocol StringFormHistoryToken: StoreHistoryToken {
    /// The backend kind its string names.
    static var kindName: String { get }
}
