import DataStoreCore

/// One user action on a ``ModelUndoManager``'s stacks.
enum UndoStep {
    /// Transactions the context saved (or an undo or redo wrote), in commit order: undone by writing the
    /// inverse of each, newest first.
    case saved([SavedTransaction], name: String)
    /// Edits the context had not saved when an undo discarded them: a redo makes them pending again.
    case unsaved(UnsavedEdits, name: String)

    var name: String {
        switch self {
        case .saved(_, let name), .unsaved(_, let name): name
        }
    }
}

/// A transaction a context's save committed: its store and position.
struct SavedTransaction: Hashable, Sendable {
    var store: String
    var position: CompositeHistoryToken.Component
}

/// The unsaved edits an undo discarded, kept to make them pending again on redo.
struct UnsavedEdits {
    /// Pending inserts, in order, and their values: a rollback detaches their relationships, which a redo
    /// puts back.
    var inserted: [(model: any PersistentModel, values: [String: SnapshotValue])]
    /// Saved models with unsaved changes, and the values they had.
    var updated: [(model: any PersistentModel, values: [String: SnapshotValue])]
    /// Models marked for deletion, in order.
    var deleted: [any PersistentModel]
    /// Batch deletes waiting for the save.
    var batchDeletes: [PendingBatchDelete]
}
