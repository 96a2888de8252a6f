/// The changes one `save` asks a store to commit, as snapshots.
///
/// A store commits all of them as one transaction or none of them.
public struct DataStoreSaveChangesRequest: Sendable {
    /// Who is saving; copied into the transaction.
    public var editingState: EditingState
    /// New models. Their identifiers are proposals that the store may remap.
    public var inserted: [DataStoreSnapshot]
    /// Changed models, with all their attribute values.
    public var updated: [DataStoreSnapshot]
    /// Deleted models. Only the identifiers matter.
    public var deleted: [DataStoreSnapshot]

    /// Creates a request.
    public init(
        editingState: EditingState = EditingState(), inserted: [DataStoreSnapshot] = [],
        updated: [DataStoreSnapshot] = [], deleted: [DataStoreSnapshot] = []
    ) {
        self.editingState = editingState
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    /// Whether the request holds no change at all.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}
