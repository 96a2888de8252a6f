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
    /// The changes among ``changes`` that the request did not name: the deletes a `.cascade` rule added and
    /// the updates a `.nullify` rule made to inverse relationships. Report them in
    /// ``DataStoreSaveChangesResult/deleteRuleChanges`` so contexts update the models they track.
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
