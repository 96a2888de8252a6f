public import Foundation

extension SnapshotValue {
    /// Orders two values of the same kind, for range bounds and sorting inside stores.
    ///
    /// Returns `nil` when the kinds differ (other than integer against double) or the kind has no order
    /// (data, arrays). `null` orders before every other value, as `nil` does in `SortDescriptor`.
    public func compare(to other: SnapshotValue) -> ComparisonResult? {
        func order<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
            a < b ? .orderedAscending : (a == b ? .orderedSame : .orderedDescending)
        }
        switch (self, other) {
        case (.null, .null): return .orderedSame
        case (.null, _): return .orderedAscending
        case (_, .null): return .orderedDescending
        case (.string(let a), .string(let b)): return order(a, b)
        case (.integer(let a), .integer(let b)): return order(a, b)
        case (.double(let a), .double(let b)): return order(a, b)
        case (.integer(let a), .double(let b)): return order(Double(a), b)
        case (.double(let a), .integer(let b)): return order(a, Double(b))
        case (.bool(let a), .bool(let b)): return order(a ? 1 : 0, b ? 1 : 0)
        case (.date(let a), .date(let b)): return order(a, b)
        case (.uuid(let a), .uuid(let b)): return order(a.uuidString, b.uuidString)
        case (.identifier(let a), .identifier(let b)): return order(a, b)
        default: return nil
        }
    }
}
