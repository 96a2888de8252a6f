public import DataStoreCore

/// Undo and redo for a ``ModelContext``: what SwiftData's `isUndoEnabled: true` gives a main context, on every
/// platform (Foundation has no `UndoManager` on Linux, so this is the package's own, with the same names).
///
/// ```swift
/// let container = try ModelContainer(for: Trip.self)
/// container.isUndoEnabled = true                 // SwiftData: .modelContainer(for: Trip.self, isUndoEnabled: true)
/// let context = container.mainContext
/// context.insert(Trip(name: "Paris"))
/// try context.save()
/// try context.undoManager?.undo()                // writes the inverse transaction: the trip is deleted
/// try context.undoManager?.redo()                // and inserted again
/// ```
///
/// - **Unsaved changes** are undone in memory: ``undo()`` with pending changes discards them (as `rollback()`),
///   and ``redo()`` makes them pending again.
/// - **Saved changes** are undone by writing the inverse transaction through the normal save path, so history,
///   delete rules, observers and sync see an ordinary transaction, by the author ``undoAuthor`` (`redoAuthor`
///   for a redo). An insert is undone as a delete (delete rules apply); an update by writing back the
///   previous values; a delete by inserting the model again from its tombstone and previous values, with the
///   relationships whose targets still exist. This needs history's previous values: mark the attributes
///   `.preservePreviousValue`, or the undo throws `DataStoreError.undoUnavailable`.
/// - **Other authors' work is never overwritten.** When a later transaction (another context, process or
///   device) changed an attribute the undo would restore, deleted a model it would change, or took a unique
///   value it would give back, the undo throws `DataStoreError.undoConflict` naming the model and the
///   attribute, and writes nothing.
/// - **One user action is one step**: each `save()` is one step, and every save between
///   ``beginUndoGrouping()`` and ``endUndoGrouping()`` is one step together.
///
/// Attach it with `context.undoManager = ModelUndoManager()`, or set ``ModelContainer/isUndoEnabled`` for the main
/// context. Use it on the context's thread or actor: like the context, it is not `Sendable`.
public final class ModelUndoManager {
    /// The context whose saves this manager records; set when assigned to ``ModelContext/undoManager``.
    weak var context: ModelContext?
    var undoStack: [UndoStep] = []
    var redoStack: [UndoStep] = []
    /// The saves of the open group, in commit order.
    private var openGroup: [SavedTransaction] = []
    /// Every transaction this manager recorded or wrote. Undo and redo go newest first, so when a step is
    /// taken back, each later one of these is paired with the one that took it back: together they change
    /// nothing, and are not another author's changes.
    private var ownTransactions = Set<SavedTransaction>()
    /// Other authors' transactions after the steps, read once.
    private let foreignHistory = ForeignHistory()
    private var nextActionName = ""

    /// The most steps kept for undo; the oldest are dropped beyond it. `0`, the default, keeps them all.
    public var levelsOfUndo = 0 {
        didSet { trim() }
    }
    /// How many ``beginUndoGrouping()`` calls are not yet ended.
    public private(set) var groupingLevel = 0
    /// Whether an ``undo()`` is running (its inverse transactions are not recorded as new steps).
    public private(set) var isUndoing = false
    /// Whether a ``redo()`` is running.
    public private(set) var isRedoing = false

    /// Creates a manager with no steps.
    public init() {}

    /// Whether ``undo()`` has something to undo: unsaved changes, or a saved step.
    public var canUndo: Bool { context?.hasChanges == true || !undoStack.isEmpty }
    /// Whether ``redo()`` has something to redo.
    public var canRedo: Bool { !redoStack.isEmpty }
    /// The name of the step ``undo()`` would undo (empty when unnamed).
    public var undoActionName: String {
        context?.hasChanges == true ? nextActionName : undoStack.last?.name ?? ""
    }
    /// The name of the step ``redo()`` would redo (empty when unnamed).
    public var redoActionName: String { redoStack.last?.name ?? "" }

    /// Names the step being recorded (the next save, or the open group), for a menu's "Undo Rename Trip".
    public func setActionName(_ name: String) {
        nextActionName = name
    }

    /// Opens a group: every save until the matching ``endUndoGrouping()`` is one step. Groups nest; only the
    /// outermost one makes a step.
    public func beginUndoGrouping() {
        groupingLevel += 1
    }

    /// Closes the group ``beginUndoGrouping()`` opened; closing the outermost one records its saves as one step.
    ///
    /// - Throws: `DataStoreError.undoUnavailable` when no group is open.
    public func endUndoGrouping() throws(DataStoreError) {
        guard groupingLevel > 0 else {
            throw .undoUnavailable(reason: "endUndoGrouping() without a matching beginUndoGrouping()")
        }
        groupingLevel -= 1
        guard groupingLevel == 0, !openGroup.isEmpty else { return }
        push(.saved(openGroup, name: nextActionName))
        openGroup = []
    }

    /// Forgets every step, for undo and for redo.
    public func removeAllActions() {
        undoStack = []
        redoStack = []
        openGroup = []
        nextActionName = ""
        ownTransactions = []
        foreignHistory.removeAll()
    }

    /// The author of the transactions an undo writes: the context's author followed by `-undo`, or `undo`.
    public var undoAuthor: String { (context?.author).map { "\($0)-undo" } ?? "undo" }
    /// The author of the transactions a redo writes: the context's author followed by `-redo`, or `redo`.
    public var redoAuthor: String { (context?.author).map { "\($0)-redo" } ?? "redo" }

    /// Undoes the newest step: the context's unsaved changes if it has any, else the newest saved step.
    ///
    /// - Throws: `DataStoreError.undoUnavailable` when there is nothing to undo, a group is open, or
    ///   what the step needs is gone (history trimmed past it, the store erased, previous values not recorded,
    ///   a transaction of a newer schema); `DataStoreError.undoConflict` when another author changed what
    ///   it would restore. Nothing is written then. A store error while writing a step of several
    ///   transactions leaves the ones already undone undone (they move to the redo stack) and the rest on the
    ///   undo stack.
    public func undo() throws {
        let context = try attachedContext()
        if context.hasChanges {
            redoStack.append(.unsaved(context.discardUnsavedEdits(), name: nextActionName))
            nextActionName = ""
            return
        }
        guard case .saved(let transactions, let name)? = undoStack.last else {
            throw DataStoreError.undoUnavailable(reason: "there is nothing to undo")
        }
        isUndoing = true
        defer { isUndoing = false }
        try takeBack(
            transactions, named: name, in: context, author: undoAuthor, from: \.undoStack, to: \.redoStack)
    }

    /// Redoes the step the last ``undo()`` undid.
    ///
    /// - Throws: `DataStoreError.undoUnavailable` when there is nothing to redo or the context has unsaved
    ///   changes made since the undo; otherwise as ``undo()``.
    public func redo() throws {
        let context = try attachedContext()
        guard let step = redoStack.last else {
            throw DataStoreError.undoUnavailable(reason: "there is nothing to redo")
        }
        guard !context.hasChanges else {
            throw DataStoreError.undoUnavailable(
                reason: "the context has unsaved changes made after the undo; save or roll them back first")
        }
        isRedoing = true
        defer { isRedoing = false }
        switch step {
        case .unsaved(let edits, let name):
            redoStack.removeLast()
            context.restoreUnsavedEdits(edits)
            nextActionName = name
        case .saved(let inverses, let name):
            try takeBack(
                inverses, named: name, in: context, author: redoAuthor, from: \.redoStack, to: \.undoStack)
            trim()
        }
    }

    /// Takes back the saved step on top of `source` by writing inverse transactions, and puts what they wrote
    /// on `target`. When a store fails part way, the inverses written go to `target` and the rest stays on
    /// `source`.
    private func takeBack(
        _ transactions: [SavedTransaction], named name: String, in context: ModelContext, author: String,
        from source: ReferenceWritableKeyPath<ModelUndoManager, [UndoStep]>,
        to target: ReferenceWritableKeyPath<ModelUndoManager, [UndoStep]>
    ) throws {
        do {
            let written = try context.revert(
                transactions, author: author, ignoring: ownTransactions, foreign: foreignHistory)
            ownTransactions.formUnion(written)
            self[keyPath: source].removeLast()
            if !written.isEmpty { self[keyPath: target].append(.saved(written, name: name)) }
        } catch let failure as PartialRevert {
            ownTransactions.formUnion(failure.written)
            self[keyPath: source][self[keyPath: source].count - 1] = .saved(failure.remaining, name: name)
            self[keyPath: target].append(.saved(failure.written, name: name))
            throw failure.error
        }
    }

    /// Records the transactions one save of the context committed: a new step, or part of the open group. A new
    /// step clears the redo stack, as in Foundation.
    func recordSave(_ transactions: [SavedTransaction]) {
        guard !isUndoing, !isRedoing, !transactions.isEmpty else { return }
        ownTransactions.formUnion(transactions)
        redoStack = []
        if groupingLevel > 0 {
            openGroup += transactions
        } else {
            push(.saved(transactions, name: nextActionName))
        }
    }

    private func push(_ step: UndoStep) {
        undoStack.append(step)
        nextActionName = ""
        trim()
    }

    private func trim() {
        if levelsOfUndo > 0, undoStack.count > levelsOfUndo {
            undoStack.removeFirst(undoStack.count - levelsOfUndo)
        }
    }

    private func attachedContext() throws(DataStoreError) -> ModelContext {
        guard let context else {
            throw .undoUnavailable(
                reason: "the undo manager is not attached to a context (context.undoManager)")
        }
        guard groupingLevel == 0 else {
            throw .undoUnavailable(reason: "an undo group is open; call endUndoGrouping() first")
        }
        return context
    }
}

/// A step of several transactions failed part way: `written` are the inverses committed, `remaining` the
/// transactions still to undo, in commit order.
struct PartialRevert: Error {
    var written: [SavedTransaction]
    var remaining: [SavedTransaction]
    var error: any Error
}
