public import Foundation

// The scalar conformances are one-liners each; they share this file so the mapping reads as one table.

extension String: SnapshotValueConvertible {
    /// ``SnapshotValue/string(_:)``.
    @inlinable public var snapshotValue: SnapshotValue { .string(self) }
    /// `"string"`.
    public static var snapshotValueKind: String { "string" }
    /// Accepts ``SnapshotValue/string(_:)`` only.
    @inlinable public init?(snapshotValue: SnapshotValue) {
        guard case .string(let value) = snapshotValue else { return nil }
        self = value
    }
}

extension Int64: SnapshotValueConvertible {
    /// ``SnapshotValue/integer(_:)``.
    @inlinable public var snapshotValue: SnapshotValue { .integer(self) }
    /// `"integer"`.
    public static var snapshotValueKind: String { "integer" }
    /// Accepts ``SnapshotValue/integer(_:)`` only.
    @inlinable public init?(snapshotValue: SnapshotValue) {
        guard case .integer(let value) = snapshotValue else { return nil }
        self = value
    }
}

extension Int: SnapshotValueConvertible {
    /// ``SnapshotValue/integer(_:)``.
    @inlinable public var snapshotValue: SnapshotValue { .integer(Int64(self)) }
    /// `"integer"`.
    public static var snapshotValueKind: String { "integer" }
    /// Accepts ``SnapshotValue/integer(_:)`` that fits in `Int`.
    @inlinable public init?(snapshotValue: SnapshotValue) {
        guard case .integer(let value) = snapshotValue, let fitting = Int(exactly: value) else { return nil }
        self = fitting
    }
}

extension Double: SnapshotValueConvertible {
    /// ``SnapshotValue/double(_:)``.
    @inlinable public var snapshotValue: SnapshotValue { .double(self) }
    /// `"double"`.
    public static var snapshotValueKind: String { "double" }
    /// Accepts ``SnapshotValue/double(_:)``, and ``SnapshotValue/integer(_:)`` converted exactly.
    @inlinable public init?(snapshotValue: SnapshotValue) {
        switch snapshotValue {
        case .double(let value): self = value
        case .integer(let value):
            guard let exact = Double(exactly: value) else { return nil }
            self = exact
        default: return nil
        }
    }
}

extension Bool: SnapshotValueConvertible {
    /// ``SnapshotValue/bool(_:)``.
    @inlinable public var snapshotValue: SnapshotValue { .bool(self) }
    /// `"bool"`.
    public static var snapshotValueKind: String { "bool" }
    /// Accepts ``SnapshotValue/bool(_:)`` only.
    @inlinable public init?(snapshotValue: SnapshotValue) {
        guard case .bool(let value) = snapshotValue else { return nil }
        self = value
    }
}

extension Date: SnapshotValueConvertible {
    /// ``SnapshotValue/date(_:)``.
    @inlinable public var snapshotValue: SnapshotValue { .date(self) }
    /// `"date"`.
    public static var snapshotValueKind: String { "date" }
    /// Accepts ``SnapshotValue/date(_:)`` only.
    @inlinable public init?(snapshotValue: SnapshotValue) {
        guard case .date(let value) = snapshotValue else { return nil }
        self = value
    }
}

extension Data: SnapshotValueConvertible {
    /// ``SnapshotValue/data(_:)``.
    @inlinable public var snapshotValue: SnapshotValue { .data(self) }
    /// `"data"`.
    public static var snapshotValueKind: String { "data" }
    /// Accepts ``SnapshotValue/data(_:)`` only.
    @inlinable public init?(snapshotValue: SnapshotValue) {
        guard case .data(let value) = snapshotValue else { return nil }
        self = value
    }
}

extension UUID: SnapshotValueConvertible {
    /// ``SnapshotValue/uuid(_:)``.
    @inlinable public var snapshotValue: SnapshotValue { .uuid(self) }
    /// `"uuid"`.
    public static var snapshotValueKind: String { "uuid" }
    /// Accepts ``SnapshotValue/uuid(_:)`` only.
    @inlinable public init?(snapshotValue: SnapshotValue) {
        guard case .uuid(let value) = snapshotValue else { return nil }
        self = value
    }
}

extension PersistentIdentifier: SnapshotValueConvertible {
    /// ``SnapshotValue/identifier(_:)``: a reference to another model.
    @inlinable public var snapshotValue: SnapshotValue { .identifier(self) }
    /// `"identifier"`.
    public static var snapshotValueKind: String { "identifier" }
    /// Accepts ``SnapshotValue/identifier(_:)`` only.
    @inlinable public init?(snapshotValue: SnapshotValue) {
        guard case .identifier(let value) = snapshotValue else { return nil }
        self = value
    }
}
