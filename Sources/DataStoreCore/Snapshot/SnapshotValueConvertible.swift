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
}
