/// The changes one `save` asks a store to commit, as snapshots.
///
/// A store commits all of them as one transaction or none of them.
///
/// Updates are change sets: an updated snapshot holds only the attributes the saver changed, and the store
/// merges them into the row it holds, so that attributes the saver did not change keep what others wrote
/// since it read the model. ``baselines`` says what each change is a change from; ``mergePolicy`` says what
/// happens when the stored value is no longer that.
public struct DataStoreSaveChangesRequest: Sendable {
    /// Who is saving; copied into the transaction.
    public var editingState: EditingState
    /// New models. Their identifiers are proposals that the store may remap.
    public var inserted: [DataStoreSnapshot]
    /// Changed models, each with the attributes to change: an attribute a snapshot leaves out keeps its stored
    /// value (write ``SnapshotValue/null`` to clear one). A to-many relationship with a baseline is an edit of
    /// the stored list: the identifiers added since the baseline are appended, the ones removed are removed.
    public var updated: [DataStoreSnapshot]
    /// Deleted models. Only the identifiers matter.
    public var deleted: [DataStoreSnapshot]
    /// For updated models, the values the saver last read of the attributes it sends, by model: what each
    /// change is a change from. A model or attribute without a baseline is written as sent (a to-many
    /// relationship then replaces the stored list).
    ///
    /// An inserted model may have baselines too (by its proposed identifier): they count when its unique value
    /// is taken and the store makes the insert an update of the holder (an upsert). The insert is then merged
    /// as an update is: attributes it leaves out keep the holder's values, and a to-many relationship with a
    /// baseline is merged into the holder's list instead of replacing it (a baseline of an empty list keeps the
    /// holder's members and adds the insert's). Without baselines, the upsert writes the insert's values as the
    /// holder's row. Under ``MergePolicy/error`` the upsert is checked against the baselines as an update is.
    public var baselines: [PersistentIdentifier: [String: SnapshotValue]]
    /// What the store does when a stored value differs from its baseline; see ``MergePolicy``.
    public var mergePolicy: MergePolicy

    /// Creates a request.
    public init(
        editingState: EditingState = EditingState(), inserted: [DataStoreSnapshot] = [],
        updated: [DataStoreSnapshot] = [], deleted: [DataStoreSnapshot] = [],
        baselines: [PersistentIdentifier: [String: SnapshotValue]] = [:],
        mergePolicy: MergePolicy = .mergeByPropertyObjectTrump
    ) {
        self.editingState = editingState
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.baselines = baselines
        self.mergePolicy = mergePolicy
    }

    /// Whether the request holds no change at all.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}
