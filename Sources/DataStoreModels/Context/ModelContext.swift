public import DataStoreCore
public import Foundation

/// Where app code works with models: insert, change, delete and save them, fetch them, and read history.
///
/// A context tracks the class-model instances it inserted or fetched, so `save()` writes whatever changed,
/// as in SwiftData. Struct models are values: insert the changed value again to update it.
///
/// A context is not `Sendable`: use it from one task or thread at a time, and create one per task. The
/// container and its stores are shared safely.
public final class ModelContext {
    /// What the context knows about one model.
    struct Registration {
        enum Baseline {
            /// Never saved: a pending insert.
            case none
            /// Present in the store with values the context has not seen: a pending update.
            case unknown
            /// Present in the store with these values, as last fetched or saved.
            case saved([String: SnapshotValue])
        }

        var model: any PersistentModel
        var baseline: Baseline
        var isDeleted = false
        /// Other class instances with the same identity: an instance inserted with a taken `.unique` value
        /// becomes the existing model when saved (an upsert), and its later edits must still be saved.
        var twins: [any PersistentModel] = []

        /// The values to save: the saved values with each instance's own edits applied, the primary
        /// instance's first; the primary instance's values when there is no saved baseline.
        var currentValues: [String: SnapshotValue] {
            guard case .saved(let saved) = baseline, !twins.isEmpty else { return model.snapshotValues }
            var values = saved
            for instance in [model] + twins {
                for (name, value) in instance.snapshotValues where saved[name] != value {
                    values[name] = value
                }
            }
            return values
        }

        /// Records `values` as saved and puts every instance at them (writes the change log does not note).
        mutating func markSaved(
            _ values: [String: SnapshotValue], resolver: (any RelatedModelResolving)?, log: ModelChangeLog
        ) {
            baseline = .saved(values)
            guard !twins.isEmpty else { return }
            log.suspended {
                // The values came from this model type, so they convert.
                try? model.apply(values, resolver: resolver)
                for index in twins.indices { try? twins[index].apply(values, resolver: resolver) }
            }
        }
    }

    /// The container the context saves to and fetches from.
    public let container: ModelContainer
    /// The author recorded in the history transactions this context's saves create, such as `"widget"`.
    public var author: String?
    /// What a save does about an attribute that another context or process changed since this context read it,
    /// when this context changed it too: by default this context's value wins for that attribute only
    /// (`MergePolicy/mergeByPropertyObjectTrump`); `MergePolicy/error` refuses the whole save with
    /// `DataStoreError/mergeConflict` instead. Attributes this context did not change are never written.
    public var mergePolicy: MergePolicy = .mergeByPropertyObjectTrump
    /// Whether the context saves by itself: about ``autosaveDelay`` after a change, and when the process exits
    /// normally. `true` for ``ModelContainer/mainContext``, `false` for other contexts, as in SwiftData.
    public var autosaveEnabled = false {
        didSet {
            guard autosaveEnabled else { return }
            AutosavingContexts.shared.register(self)
            startAutosaveOnEdits()
            if registry.hasModelsToCompare { startAutosaveTimer() }
            if hasChanges { changed() }
        }
    }
    /// Receives the error of a failed autosave (the changes stay pending). By default it writes the error to
    /// standard error; a failed autosave is never dropped silently.
    public var autosaveErrorHandler: (any Error) -> Void = { error in
        FileHandle.standardError.write(Data("DataStoreHistory: autosave failed: \(error)\n".utf8))
    }
    var autosaveScheduled = false
    /// The error of a relationship that failed to load (and so read as empty) since the last rollback: the next
    /// `save()` throws it instead of saving edits that may rest on the wrong value.
    var relationshipLoadFailure: (any Error)?
    /// Set on a custom migration stage's `willMigrate` context: `save()` keeps the changes pending, and the
    /// migration commits them together with the new schema.
    var defersSaves = false
    var autosaveTimer: (any DispatchSourceTimer)?
    /// Schedules an autosave after each edit of a model that reports its changes.
    var autosaveEditRelay: Task<Void, Never>?
    /// Identifies this context in save requests.
    public let editingIdentifier = UUID()
    /// Records this context's saves for undo and redo; `nil` (the default) records nothing. See
    /// ``ModelUndoManager``.
    public var undoManager: ModelUndoManager? {
        didSet {
            if oldValue !== undoManager { oldValue?.context = nil }
            undoManager?.context = self
        }
    }
    /// The counters of the most recent history fetch, to check that it sought instead of scanning.
    package internal(set) var lastHistoryStatistics = HistoryQueryStatistics()

    /// The registrations. Read and change them through ``registry``, which registers ``deferredInserts`` first;
    /// only the paths that know the deferred inserts cannot matter to them use this directly.
    var registered: ModelRegistry
    /// The registry's change log, outside it: what a resolver made while the registry is being changed reads.
    let changeLog: ModelChangeLog
    /// New models `insert` has not registered yet: the last entries of `insertOrder`, in the same order.
    /// See `ModelContext+DeferredInserts.swift`.
    // Unchecked, as `insertOrder` and `aliases` below: `insert` touches each once per model, no access to them
    // overlaps another (none is held across a call that could reach them), and the run-time checks cost about
    // 240 of an insert's 4,000 instructions. A context is used from one thread at a time.
    @exclusivity(unchecked) var deferredInserts = DeferredInserts()
    /// What `insert` looked up about the model type it inserted last: inserts come in runs of one type.
    @exclusivity(unchecked) var lastInsertedType: InsertedTypeFacts?
    /// How many deferred inserts had to be registered after all, for tests that check a save registers none.
    package internal(set) var deferredInsertsRegistered = 0
    /// Signalled when the context's unsaved changes change (an insert, a delete, a batch delete queued, a
    /// rollback, a save), for observers of this context's results.
    let unsavedChanges = SignalBroadcaster()
    /// How many tracked models `save()`, `hasChanges` and the like compared with their saved values, for tests
    /// that check they look only at models that may have changed.
    package internal(set) var modelsExamined = 0
    @exclusivity(unchecked) var insertOrder: [PersistentIdentifier] = []
    var deleteOrder: [PersistentIdentifier] = []
    /// `delete(model:where:)` calls waiting for the next save, in order.
    var pendingBatchDeletes: [PendingBatchDelete] = []
    /// Primary keys of identifiers the context proposed, to the identifier the store used, so that struct
    /// copies holding an older identifier still resolve.
    @exclusivity(unchecked) var aliases: [String: PersistentIdentifier] = [:]
    /// Loads relationships of models the context refreshes outside a fetch (rollback, saves).
    lazy var relationshipResolver = ContextRelationshipResolver(context: self)

    /// Creates a context for the container.
    public init(_ container: ModelContainer) {
        self.container = container
        let log = ModelChangeLog()
        changeLog = log
        registered = ModelRegistry(log: log)
    }

    deinit {
        autosaveTimer?.cancel()
        autosaveEditRelay?.cancel()
        unloadRelationshipsOfTrackedModels()
    }

    var editingState: EditingState {
        EditingState(id: editingIdentifier, author: author)
    }

    /// The identifier a model's (possibly stale or unresolved) identifier refers to: itself if registered,
    /// the identifier the store gave it if this context proposed it, or `nil` if the context never saw it.
    func resolve(_ id: PersistentIdentifier) -> PersistentIdentifier? {
        // The registry holds resolved identifiers only (`insert` assigns one first): a new model's
        // identifier is not looked up there.
        if id.isResolved, registry.contains(id) { return id }
        if !aliases.isEmpty, let alias = aliases[id.primaryKey],
            !id.isResolved || alias.entityName == id.entityName
        {
            return alias
        }
        return nil
    }

    // MARK: - Changing models

    /// Registers a new model for insertion at the next save, assigning its identifier.
    ///
    /// For a class model, `model.persistentModelID` changes in place. Inserting a model the context
    /// already knows records its current values as an update, which is how struct models are changed.
    public func insert<Model: PersistentModel>(_ model: Model) {
        let id = model.persistentModelID
        if !id.isResolved, !id.isPlaceholder {
            // The common insert of a new model: its key is the one it keeps, so one lookup in `aliases` finds an
            // earlier insert of it or claims the key for this one.
            let facts = insertedTypeFacts(Model.self)
            let assigned = PersistentIdentifier(
                storeIdentifier: facts.store ?? "", entityName: facts.entity, primaryKey: id.primaryKey)
            // Claimed by `updateValue`, which hashes the key once and allocates nothing (a claim through the
            // subscript's in-place access allocated its frame for each insert); an earlier claim, the rare
            // case, is put back.
            if let known = aliases.updateValue(assigned, forKey: id.primaryKey) {
                aliases[id.primaryKey] = known
                insertAgain(model, as: known)
            } else {
                insertNew(model, as: assigned, facts: facts)
            }
            return
        }
        if let known = resolve(id) {
            insertAgain(model, as: known)
            return
        }
        if id.isResolved {
            registry[id] = Registration(model: model, baseline: .unknown)
            changed()
            return
        }
        let facts = insertedTypeFacts(Model.self)
        // A placeholder (a model made inside another's `init()` while a fetch made it) is unique in this
        // process only: a stored model gets a random key.
        let assigned = PersistentIdentifier(
            storeIdentifier: facts.store ?? "", entityName: facts.entity,
            primaryKey: PersistentIdentifier().primaryKey)
        aliases[assigned.primaryKey] = assigned
        insertNew(model, as: assigned, facts: facts)
    }

    /// Inserts a model the context knows as `known`: its current values are what the next save writes.
    private func insertAgain<Model: PersistentModel>(_ model: Model, as known: PersistentIdentifier) {
        var model = model
        model.persistentModelID = known
        if registry[known] == nil {
            // Saved earlier and no longer tracked (a struct value): its values become an update.
            registry[known] = Registration(model: model, baseline: .unknown)
        } else {
            registry[known]?.model = model
            registry[known]?.isDeleted = false
            deleteOrder.removeAll { $0 == known }
        }
    }

    /// Inserts a new model under `assigned`, which `aliases` already maps its key to.
    private func insertNew<Model: PersistentModel>(
        _ model: consuming Model, as assigned: PersistentIdentifier, facts: InsertedTypeFacts
    ) {
        model.persistentModelID = assigned
        insertOrder.append(assigned)
        if defersRegistration(of: assigned, facts: facts) {
            deferredInserts.append(model, as: assigned, isClass: facts.isClass)
        } else {
            registry[assigned] = Registration(model: copy model, baseline: .none)
            if facts.hasRelationships { insertRelatedModels(of: model) }
        }
        changed()
    }

    /// Marks a model for deletion at the next save.
    ///
    /// A model that was never saved (inserted, or related to a model the context tracks since that model's
    /// insert or last save) is forgotten at once and never saved. Its delete rules apply in memory, since the
    /// store never sees it: what a `.cascade` relationship holds is deleted too, and every relationship is
    /// emptied, so the models it was related to drop it from their inverse side (`trip.livingAccommodation`
    /// reads `nil` once its new stay is deleted); new models it held that no cascade deletes stay inserted.
    /// Deleting a model that nothing the context tracks refers to changes nothing.
    ///
    /// A saved model applies its delete rules at once to the models its relationships gained since its last
    /// save, which the store's rules cannot reach: `.nullify` lets go of them (an item moved to another trip,
    /// then deleted, leaves that trip's list), `.cascade` deletes them, `.deny` keeps them and the save refuses.
    /// The store's delete rules then do the rest at the save, from what the store holds.
    public func delete<Model: PersistentModel>(_ model: Model) {
        let given = model.persistentModelID
        var found = resolve(given) ?? (given.isResolved ? given : nil)
        if found == nil, container.modelTypes.haveRelationships {
            // Related to a tracked model since that model's insert or save: the next save would insert it. Insert
            // such models now, as SwiftData does when they are related, so that this delete finds it.
            insertNewlyRelatedModels(updated: updatedIdentifiers)
            found = resolve(given)
        }
        guard let id = found else { return }
        guard registry[id] != nil else {
            // Saved but not tracked here (fetched elsewhere, or a struct value): delete by identifier.
            registry[id] = Registration(model: model, baseline: .unknown, isDeleted: true)
            deleteOrder.append(id)
            changed()
            return
        }
        if case .none? = registry[id]?.baseline {
            // Marked while its rules run, so that a cascade coming back to it stops here.
            guard registry[id]?.isDeleted == false else { return }
            registry[id]?.isDeleted = true
            // The new models it holds are inserts too (SwiftData inserts a model when it is related): a rule
            // that only empties the relationship leaves them inserted, not forgotten.
            insertRelatedModels(of: model)
            applyDeleteRulesInMemory(to: model)
            // Emptying the models' relationships let go of it: deleted, it is not saved after all.
            registry.log.forgetDropped(model as AnyObject)
            forget(id)
            insertOrder.removeAll { $0 == id }
            changed()
            return
        }
        guard let registration = registry[id], !registration.isDeleted else { return }
        if case .saved(let saved) = registration.baseline {
            applyDeleteRules(toGainsOf: registration.model, saved: saved)
        }
        registry[id]?.isDeleted = true
        deleteOrder.append(id)
        changed()
    }

    /// Whether the context holds inserts, deletes (batch deletes included) or changed models that are not
    /// saved yet.
    public var hasChanges: Bool { pendingChangeCount > 0 }

    /// The number of models with unsaved changes, plus the batch deletes waiting for the next save.
    var pendingChangeCount: Int {
        insertOrder.count + deleteOrder.count + pendingBatchDeletes.count + updatedIdentifiers.count
            + registry.log.droppedCount
    }

    /// The saved models with unsaved attribute changes: of the models that may have changed (see
    /// ``ModelRegistry``), those whose values differ from their baseline. Models found unchanged leave the
    /// change log.
    var updatedIdentifiers: [PersistentIdentifier] {
        var updated: [PersistentIdentifier] = []
        var unchanged: [PersistentIdentifier] = []
        // A deferred insert is never an update: the registrations that may have changed are all registered.
        for id in registered.mayHaveChanged {
            guard let registration = registered[id] else { continue }
            if isUpdated(registration) { updated.append(id) } else { unchanged.append(id) }
        }
        if !unchanged.isEmpty { registered.log.forget(unchanged) }
        return updated
    }

    func isUpdated(_ registration: Registration) -> Bool {
        modelsExamined += 1
        guard !registration.isDeleted else { return false }
        switch registration.baseline {
        case .none: return false
        case .unknown: return true
        case .saved(let values): return registration.currentValues != values
        }
    }

    /// Discards every unsaved change: forgets pending inserts and batch deletes, keeps deleted models, and puts
    /// class models' attributes back to their saved values. It also forgets a relationship that failed to load,
    /// so that `save()` works again (read the relationship again: it loads anew).
    ///
    /// A discarded insert you still hold keeps its attributes and is related to nothing (so that discarded
    /// models holding each other are freed once you let them go).
    public func rollback() {
        relationshipLoadFailure = nil
        _ = registry.log.takeDropped()
        for id in insertOrder { forget(id) }
        // Only models that may have changed need their values back; the others hold them already.
        for id in Set(registry.mayHaveChanged + deleteOrder) {
            guard let registration = registry[id] else { continue }
            switch registration.baseline {
            case .none, .unknown:
                registry[id] = nil
            case .saved(let values):
                var model = registration.model
                registry.log.suspended {
                    // The values came from this model type, so they convert.
                    try? model.apply(values, resolver: relationshipResolver)
                }
                var restored = Registration(model: model, baseline: .saved(values), twins: registration.twins)
                restored.markSaved(values, resolver: relationshipResolver, log: registry.log)
                registry[id] = restored
                registry.log.forget([id])
            }
        }
        insertOrder = []
        deleteOrder = []
        pendingBatchDeletes = []
        unsavedChanges.signal()
    }
}

extension ModelContext {
    /// The models inserted since the last save, in insertion order, with the new models related to a tracked
    /// model since (which SwiftData inserts when they are related).
    public var insertedModelsArray: [any PersistentModel] {
        if container.modelTypes.haveRelationships {
            // Compared once: an empty list of updates and of inserts means nothing gained anything.
            let updated = updatedIdentifiers
            if !(insertOrder.isEmpty && updated.isEmpty) { insertNewlyRelatedModels(updated: updated) }
        }
        return insertOrder.compactMap { registry[$0]?.model }
    }

    /// The saved models with unsaved attribute changes, in identifier order.
    public var changedModelsArray: [any PersistentModel] {
        updatedIdentifiers.sorted().compactMap { registry[$0]?.model }
    }

    /// The models marked for deletion since the last save, in deletion order.
    public var deletedModelsArray: [any PersistentModel] {
        deleteOrder.compactMap { registry[$0]?.model }
    }
}
