extension Optional: SnapshotValueConvertible where Wrapped: SnapshotValueConvertible {
    /// The wrapped kind followed by `?`.
    public static var snapshotValueKind: String { Wrapped.snapshotValueKind + "?" }
    /// ``SnapshotValue/null`` for `nil`, otherwise the wrapped value's form.
    @inlinable public var snapshotValue: SnapshotValue { self?.snapshotValue ?? .null }
    /// `nil` from ``SnapshotValue/null``, otherwise the wrapped type's conversion.
    @inlinable public init?(snapshotValue: SnapshotValue) {
        if case .null = snapshotValue {
            self = .none
            return
        }
        guard let wrapped = Wrapped(snapshotValue: snapshotValue) else { return nil }
        self = .some(wrapped)
    }
}
