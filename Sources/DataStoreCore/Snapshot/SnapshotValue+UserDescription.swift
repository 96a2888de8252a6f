import Foundation

extension SnapshotValue {
    /// The value as a person wrote it in Swift, for error messages: `"Paris"`, `42`, `3.5`, `true`,
    /// `2024-05-01T10:00:00Z`, `nil`, `["a", "b"]`, never the internal `string("Paris")` form.
    public var userDescription: String {
        switch self {
        case .string(let value): "\"\(value)\""
        case .integer(let value): "\(value)"
        case .double(let value): "\(value)"
        case .bool(let value): "\(value)"
        case .date(let value): value.formatted(.iso8601)
        case .data(let value): "<\(value.count) bytes>"
        case .uuid(let value): value.uuidString
        case .identifier(let value): "\(value)"
        case .array(let values): "[" + values.map(\.userDescription).joined(separator: ", ") + "]"
        case .null: "nil"
        }
    }
}
