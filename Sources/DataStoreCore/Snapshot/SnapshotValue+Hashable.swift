import Foundation

extension SnapshotValue: Hashable {
    /// Whether two values are the same stored value. Unlike `Double`'s `==`, NaN equals NaN, so that "did
    /// this attribute change?" has a stable answer for a NaN attribute; `0.0` and `-0.0` stay equal (JSON
    /// does not keep the sign of zero).
    public static func == (lhs: SnapshotValue, rhs: SnapshotValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.double(let a), .double(let b)): a == b || (a.isNaN && b.isNaN)
        case (.bool(let a), .bool(let b)): a == b
        case (.date(let a), .date(let b)): a == b
        case (.data(let a), .data(let b)): a == b
        case (.uuid(let a), .uuid(let b)): a == b
        case (.identifier(let a), .identifier(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.null, .null): true
        default: false
        }
    }

    /// Hashes consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kindName)
        switch self {
        case .string(let value): hasher.combine(value)
        case .integer(let value): hasher.combine(value)
        case .double(let value): hasher.combine(value.isNaN ? Double.nan : value)
        case .bool(let value): hasher.combine(value)
        case .date(let value): hasher.combine(value)
        case .data(let value): hasher.combine(value)
        case .uuid(let value): hasher.combine(value)
        case .identifier(let value): hasher.combine(value)
        case .array(let values): hasher.combine(values)
        case .null: break
        }
    }
}
