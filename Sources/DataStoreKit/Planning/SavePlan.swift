public import DataStoreCore

/// A save request after validation: the changes to commit, in order, and the identifiers remapped.
///
/// ``SnapshotTable/plan(_:)-(DataStoreSaveChangesRequest)`` makes one without touching the table; `SnapshotTable.apply(_:)` commits it.
/// Splitting the two lets a store validate, then write its journal, then apply, so that a failed write
/// leaves memory and disk alike unchanged.
public struct SavePlan: Hashable, Sendable {
    /// The changes, one per model instance: inserts, then updates, then deletes, each in request order.
    public var changes: [PlannedChange]
    /// Proposed identifier to used identifier, for inserts that became updates (upserts).
    public var remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]
    /// What the save did beyond what the request sent, for contexts to apply to the models they track: the
    /// deletes a `.cascade` rule added, the updates a `.nullify` rule or an inverse relationship made to models
    /// the request did not name, and, for models it did name, the stored values that differ from what it sent
    /// (a list merged with another saver's edits). Report them in
    /// `DataStoreSaveChangesResult/deleteRuleChanges`.
    public var deleteRuleChanges: [PlannedChange]

    /// Creates a plan.
    public init(
        changes: [PlannedChange], remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier],
        deleteRuleChanges: [PlannedChange] = []
    ) {
        self.changes = changes
        self.remappedIdentifiers = remappedIdentifiers
        self.deleteRuleChanges = deleteRuleChanges
    }
}
