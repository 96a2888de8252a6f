public import DataStoreCore

/// The rows a fetch must examine, as ``SnapshotTable/selectCandidates(for:bounds:)`` picks them, and whether
/// they come in ascending identifier order: pass both to
/// ``SnapshotQuery/run(_:candidates:storeIdentifier:relatedRows:bounds:)``, so that a fetch without `sortBy`
/// does not sort rows that are in order already, nor check rows that satisfy the predicate already.
public struct SnapshotCandidates: Sendable {
    /// The rows.
    public var rows: [DataStoreSnapshot]
    /// Whether `rows` are in ascending identifier order.
    public var areInIdentifierOrder: Bool
    /// Whether every row satisfies the constraints of the predicate's bounds (``ModelPredicateBounds``)
    /// already, as rows picked by their identifiers, or by an index equality that is the bounds' only
    /// constraint, do: the query then does not check them again. (Whether the bounds are the whole predicate
    /// is the query's to decide.)
    public var satisfyBounds: Bool

    /// Candidates, in identifier order or not, satisfying the predicate's bounds or not.
    public init(rows: [DataStoreSnapshot], areInIdentifierOrder: Bool, satisfyBounds: Bool = false) {
        self.rows = rows
        self.areInIdentifierOrder = areInIdentifierOrder
        self.satisfyBounds = satisfyBounds
    }
}
