public import DataStoreCore

/// The rows a save plan reads, looked up the way a database answers them: by identifier, and by a unique
/// value. ``SavePlanner`` reads only the rows a save touches through it, so a database-backed store plans a
/// save without loading its table; ``SnapshotTable`` is the in-memory source.
///
/// # Implementation requirements
///
/// - ``row(for:)`` returns the committed row with that identifier, or `nil`. Called once per model the
///   request names (inserted, updated or deleted), and once per holder of a taken unique value.
/// - ``uniqueHolder(entity:attributes:values:)`` returns the identifier of the committed row of `entity`
///   whose `attributes` hold `values` (in the same order, compared as `SnapshotValue`'s `==`), or `nil`.
///   Called once per uniqueness constraint (a `.unique` attribute alone, or a compound set from
///   `Schema.Entity.compoundUniqueConstraints`) of each inserted model, and of each updated model whose
///   values in it change; no value is ever `.null`, because `nil` values are not unique (any number of models
///   may hold `nil`). In SQL: a unique index on the column or columns, and `SELECT id … WHERE a = ? AND b = ?
///   LIMIT 1`.
/// - A committed row holds its own unique values: the holder of the values a row has is that row. The planner
///   relies on it and does not ask who holds the values an update leaves as they were.
/// - Both see the state the save will commit on top of: call the planner holding the lock (or inside the
///   database transaction, `SELECT … FOR UPDATE`) that the save's write holds.
public protocol SnapshotRowSource {
    /// The committed row with this identifier, or `nil`.
    func row(for identifier: PersistentIdentifier) throws(DataStoreError) -> DataStoreSnapshot?
    /// The committed row of `entity` whose unique `attributes` hold `values`, or `nil`.
    func uniqueHolder(entity: String, attributes: [String], values: [SnapshotValue]) throws(DataStoreError)
        -> PersistentIdentifier?
}
