/// A Swift type that an attribute can have: it converts to and from a ``SnapshotValue``.
///
/// The package provides conformances for `String`, `Int`, `Int64`, `Double`, `Bool`, `Date`, `Data`,
/// `UUID`, ``PersistentIdentifier``, and `Optional` and `Array` of conforming types. Conform your own
/// types (an enum with a raw value, say) to store them as attributes.
///
/// # Implementation requirements
///
/// - `init(snapshotValue: value.snapshotValue)` returns a value equal to `value`: a round trip through a
///   snapshot is exact, or a model would show a change that never happened.
/// - `init(snapshotValue:)` returns `nil` for a value of the wrong kind instead of trapping; the model layer
///   turns that into ``DataStoreError/attributeTypeMismatch(entity:attribute:expected:found:)``.
public protocol SnapshotValueConvertible {
    /// The value as a store persists it.
    var snapshotValue: SnapshotValue { get }
    /// Creates a value from its persisted form, or returns `nil` when the kind does not fit.
    init?(snapshotValue: SnapshotValue)
    /// The kind of value the type persists, recorded in a store's schema so that a change of kind is found
    /// on opening: a ``SnapshotValue`` kind name (`"string"`, `"integer"`, …), with `?` for an optional and
    /// `[…]` for an array. `"any"` by default, which matches every kind.
    static var snapshotValueKind: String { get }
}

extension SnapshotValueConvertible {
    /// `"any"`: the kind is not known, and no change of kind is detected.
    public static var snapshotValueKind: String { "any" }
}

extension SnapshotValue {
    /// The persisted form of a constant from a predicate or key path, when its type has one (a cast: prefer a
    /// conversion worked out from the constant's static type on hot paths).
    package static func ofConstant(_ constant: Any) -> SnapshotValue? {
        (constant as? any SnapshotValueConvertible)?.snapshotValue
    }
}
