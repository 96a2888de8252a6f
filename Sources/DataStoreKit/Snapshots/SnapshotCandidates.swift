public import DataStoreCore

/// The rows a fetch must examine, as ``SnapshotTable/selectCandidates(for:bounds:)`` picks them, and whether
/// they come in ascending identifier order: pass both to
/// ``SnapshotQuery/run(_:over:storeIdentifier:relatedRows:bounds:candidatesInIdentifierOrder:)``, so that a
/// fetch without `sortBy` does not sort rows that are in order already.
public struct SnapshotCandidates: Sendable {
    /// The rows.
    public var rows: [DataStoreSnapshot]
    /// Whether `rows` are in ascending identifier order.
    public var areInIdentifierOrder: Bool

    /// Candidates, in identifier order or not.
    public init(rows: [DataStoreSnapshot], areInIdentifierOrder: Bool) {
        self.rows = rows
        self.areInIdentifierOrder = areInIdentifierOrder
    }
}
