public import Foundation

/// One attribute value as a store persists it.
///
/// Equality (and hashing) asks "is this the same stored value?": `NaN == NaN` here, so an unchanged NaN
/// attribute is no change to save.
///
/// The cases cover every type an attribute may have. The Codable form is stable and documented in
/// `Docs/Architecture.md`: a one-key JSON object that names the case, such as `{"string":"Paris"}` or
/// `{"date":752000000.5}`, and JSON `null` for ``null``.
public enum SnapshotValue: Sendable {
    /// A string.
    case string(String)
    /// A signed 64-bit integer.
    case integer(Int64)
    /// A double. Non-finite values are encoded as the strings `"nan"`, `"inf"` and `"-inf"`.
    case double(Double)
    /// A Boolean.
    case bool(Bool)
    /// A date, encoded as seconds since 2001-01-01 00:00:00 UTC so that it round-trips exactly.
    case date(Date)
    /// Raw bytes, encoded as Base64.
    case data(Data)
    /// A UUID, encoded as its canonical string.
    case uuid(UUID)
    /// A reference to another model.
    indirect case identifier(PersistentIdentifier)
    /// An ordered list of values.
    case array([SnapshotValue])
    /// No value: an optional attribute that is `nil`.
    case null

    /// The name of the case, as used in the Codable form and in error messages.
    public var kindName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .double: "double"
        case .bool: "bool"
        case .date: "date"
        case .data: "data"
        case .uuid: "uuid"
        case .identifier: "identifier"
        case .array: "array"
        case .null: "null"
        }
    }
}
