import DataStoreCore

extension ModelContext {
    /// Writes every pending change, one transaction per store touched, in configuration order, then runs the
    /// batch deletes of ``delete(model:where:includeSubclasses:)``, one transaction each.
    ///
    /// A save sends, for each changed model, only the attributes this context changed since it fetched or last
    /// saved the model (a change set); the store merges them into the row it holds, so attributes changed by
    /// other contexts or processes in between are kept. Attributes both changed are settled by
    /// ``mergePolicy``. After the save, the model's other attributes keep the values this context last read
    /// until a fetch returns the model again.
    ///
    /// If a relationship failed to load since the last rollback (it read as empty, since a property cannot
    /// throw), `save()` throws that error and saves nothing: an edit made on the empty value (an append, which
    /// would save as "remove what the store holds") never reaches the store. Call ``rollback()`` and read again.
    ///
    /// Atomicity is per store: each store commits its part whole or not at all. If a store throws after an
    /// earlier store committed, the earlier part stays committed (the context records it as saved) and the
    /// failing store's part stays pending in the context, so you can fix the cause and save again, or roll
    /// back. See `Docs/Architecture.md`.
    public func save() throws {
        // A relationship read as empty because it failed to load: edits may rest on that wrong value.
        if let relationshipLoadFailure { throw relationshipLoadFailure }
        // A custom migration stage's context: its changes are committed by the migration, with the new schema.
        guard !defersSaves else { return }
        var parts = try pendingRequests()
        let mayCommit = !parts.isEmpty || !pendingBatchDeletes.isEmpty
        defer {
            // Observers look again, even after a failure: an earlier store's part may have committed.
            if mayCommit {
                unsavedChanges.signal()
                container.localSaves.signal()
            }
        }
        // What committed is one undo step, even if a later store's part fails.
        var committed: [SavedTransaction] = []
        defer { undoManager?.recordSave(committed) }
        // One operation on the container: a close that begins meanwhile waits for every store's part.
        try container.lifecycle.use {
            for store in container.stores {
                // Taken out of `parts`, so that recording it may move its values into the registrations.
                guard var request = parts.removeValue(forKey: store.identifier), !request.isEmpty else {
                    continue
                }
                let outcome = try store.save(request)
                if let position = outcome.position {
                    committed.append(SavedTransaction(store: store.identifier, position: position))
                }
                recordSaved(&request, remapped: outcome.remappedIdentifiers)
                applyDeleteRuleChanges(outcome.deleteRuleChanges)
            }
            // Batch deletes after the other changes, so they delete what matches once those are saved.
            try runPendingBatchDeletes()
        }
    }

    /// The pending changes as one save request per store identifier.
    func pendingRequests() throws -> [String: DataStoreSaveChangesRequest] {
        // Found once: each model whose properties cannot report their writes is compared with its baseline to
        // find them. Preparing the relationships inserts new models only, so the updates stay these.
        let updatedIdentifiers = self.updatedIdentifiers
        try prepareRelationshipsForSave(updated: updatedIdentifiers)
        var parts: [String: DataStoreSaveChangesRequest] = [:]
        // The store of the last entity looked up: a save's models are mostly of one entity.
        var lastStore: (entity: String, store: String)?
        func store(of id: PersistentIdentifier) throws -> String {
            if let lastStore, lastStore.entity == id.entityName { return lastStore.store }
            guard let store = container.storeIdentifierByEntity[id.entityName] else {
                throw DataStoreError.modelTypeNotInContainer(entity: id.entityName)
            }
            lastStore = (id.entityName, store)
            return store
        }
        /// The snapshots of `ids` by store, with each update's baseline (a change set: only what this context
        /// changed, and what it changed it from).
        func snapshots(_ ids: [PersistentIdentifier], updates: Bool) throws -> [String: [DataStoreSnapshot]] {
            // Copied out: reading a model's values runs its getters (a computed attribute may load a
            // relationship, which registers models), which must not run inside an access to the registry.
            try snapshots(count: ids.count, updates: updates) { position in
                registry[ids[position]].map { (ids[position], $0) }
            }
        }
        /// The same for updates and deletes, which are registered (`delete` registers deferred inserts first;
        /// an update is never a deferred insert): the deferred inserts stay deferred.
        func registeredSnapshots(_ ids: [PersistentIdentifier], updates: Bool) throws
            -> [String: [DataStoreSnapshot]]
        {
            try snapshots(count: ids.count, updates: updates) { position in
                registered[ids[position]].map { (ids[position], $0) }
            }
        }
        /// The snapshots of `count` registrations that `registration(at:)` gives, by store.
        func snapshots(
            count: Int, updates: Bool,
            registration: (Int) -> (id: PersistentIdentifier, registration: Registration)?
        ) throws -> [String: [DataStoreSnapshot]] {
            var byStore: [String: [DataStoreSnapshot]] = [:]
            // Consecutive snapshots of one store are gathered before the table is touched: a save of many models
            // would otherwise hash the store's name once per model.
            var run: (store: String, snapshots: [DataStoreSnapshot])?
            func endRun() {
                guard let run else { return }
                if byStore[run.store] == nil {
                    byStore[run.store] = run.snapshots
                } else {
                    byStore[run.store]?.append(contentsOf: run.snapshots)
                }
            }
            for position in 0..<count {
                guard let (id, registration) = registration(position) else { continue }
                let store = try store(of: id)
                var values = registration.currentValues
                if updates, case .saved(let saved) = registration.baseline {
                    values = values.filter { name, value in (saved[name] ?? .null) != value }
                    parts[store, default: newRequest()].baselines[id] = Dictionary(
                        uniqueKeysWithValues: values.keys.map { ($0, saved[$0] ?? .null) })
                }
                if run?.store != store {
                    endRun()
                    run = (store, [])
                }
                run?.snapshots.append(DataStoreSnapshot(persistentIdentifier: id, values: values))
            }
            endRun()
            return byStore
        }
        var inserted: [String: [DataStoreSnapshot]] = [:]
        if insertsAreAllDeferred {
            // Read from the list a run of one model type at a time, without registering them (a copy: reading
            // values runs getters). A run's models are of one entity, so of one store.
            for run in deferredInserts.runs {
                let store = try store(of: run.identifiers[0])
                if inserted[store] == nil {
                    inserted[store] = run.snapshots()
                } else {
                    inserted[store]?.append(contentsOf: run.snapshots())
                }
            }
        } else {
            inserted = try snapshots(insertOrder, updates: false)
        }
        for (store, inserted) in inserted {
            parts[store, default: newRequest()].inserted = inserted
            parts[store]?.baselines.merge(Self.newListBaselines(of: inserted, in: container.schema)) { $1 }
        }
        for (store, updated) in try registeredSnapshots(updatedIdentifiers.sorted(), updates: true) {
            parts[store, default: newRequest()].updated = updated
        }
        for (store, deleted) in try registeredSnapshots(deleteOrder, updates: false) {
            parts[store, default: newRequest()].deleted = deleted
        }
        return parts
    }

    /// Baselines of empty lists for the to-many relationships of `inserted` models of entities with unique
    /// constraints: each list started empty. When the store makes such an insert an update of the model that
    /// holds its unique value (an upsert), its lists then add to that model's instead of replacing them, so the
    /// members another context, process or device put there stay (other attributes take the insert's values).
    static func newListBaselines(of inserted: [DataStoreSnapshot], in schema: Schema)
        -> [PersistentIdentifier: [String: SnapshotValue]]
    {
        var baselines: [PersistentIdentifier: [String: SnapshotValue]] = [:]
        // The entity of the last insert, when it has unique constraints and lists: a save's inserts are mostly
        // of one entity.
        var last: (name: String, entity: Schema.Entity?)?
        for snapshot in inserted {
            let name = snapshot.persistentIdentifier.entityName
            if last?.name != name {
                let entity = schema.entity(named: name)
                let upserts = entity.map {
                    !$0.uniqueConstraints.isEmpty && $0.relationships.contains(where: \.isToMany)
                }
                last = (name, upserts == true ? entity : nil)
            }
            guard let entity = last?.entity else { continue }
            let empty = entity.newListBaselines(of: snapshot.values)
            if !empty.isEmpty { baselines[snapshot.persistentIdentifier] = empty }
        }
        return baselines
    }

    private func newRequest() -> DataStoreSaveChangesRequest {
        DataStoreSaveChangesRequest(editingState: editingState, mergePolicy: mergePolicy)
    }

    /// Whether every model `request` inserts is a struct, by its entity's model type (a save's inserts are mostly
    /// of one entity: each entity is looked up once in a row).
    private func insertsOnlyStructModels(_ request: DataStoreSaveChangesRequest) -> Bool {
        var last: String?
        for snapshot in request.inserted {
            let entity = snapshot.persistentIdentifier.entityName
            if entity == last { continue }
            guard let type = container.modelTypes.types[entity], !(type is AnyObject.Type) else {
                return false
            }
            last = entity
        }
        return true
    }

    /// Updates the context after one store committed `request`, which it may empty of the values it keeps.
    private func recordSaved(
        _ request: inout DataStoreSaveChangesRequest, remapped: [PersistentIdentifier: PersistentIdentifier]
    ) {
        // The common save of deferred inserts: they are the request's inserts (the request names each pending
        // insert once, and they are all the pending inserts) and none was remapped. The class models among
        // them are registered as saved at once; the request's updates and deletes are recorded below.
        if remapped.isEmpty, insertsAreAllDeferred, request.inserted.count == deferredInserts.count {
            registerSavedDeferredInserts(&request.inserted)
            insertOrder.removeAll()
            recordSavedUpdatesAndDeletes(request)
            return
        }
        // The common save of new struct models into a context that tracks nothing else: every registration is
        // one of this request's inserts (each names a registration once, and an update or delete would need one
        // more), none was remapped, and a saved struct is not tracked (see below). The registry empties at once,
        // without looking each one up.
        if remapped.isEmpty, request.inserted.count == registry.count,
            request.inserted.count == insertOrder.count,
            insertsOnlyStructModels(request)
        {
            registry.removeAllStructModels()
            insertOrder.removeAll()
            return
        }
        let log = registry.log
        for snapshot in request.inserted {
            let proposed = snapshot.persistentIdentifier
            // The common insert: a class model the store kept under its identifier stays registered as it is,
            // now saved. (A saved struct is not kept: see below.)
            if remapped.isEmpty || remapped[proposed] == nil,
                registry.markInsertSaved(proposed, values: snapshot.values)
            {
                continue
            }
            guard var registration = registry.removeValue(forKey: proposed) else { continue }
            let used = remapped[proposed] ?? proposed
            // `insert` mapped the key to the identifier it assigned; only a remapping changes it.
            if used != proposed { aliases[proposed.primaryKey] = used }
            // A saved struct is a value: nothing to track (see below), so skip re-registering it.
            guard type(of: registration.model) is AnyObject.Type else { continue }
            registration.model.persistentModelID = used
            registration.baseline = .saved(snapshot.values)
            if used != proposed, case .saved = registry[used]?.baseline {
                // An upsert landed on a model this context already tracks: both instances now hold the
                // inserted values, and edits to either are saved from here on.
                registry[used]?.twins.append(registration.model)
                registry[used]?.markSaved(snapshot.values, resolver: relationshipResolver, log: log)
            } else {
                registry[used] = registration
            }
        }
        if request.inserted.count == insertOrder.count {
            // Every pending insert was in this request (the request was made from `insertOrder`, which names
            // each model once): nothing to look up.
            insertOrder.removeAll()
        } else {
            let inserted = Set(request.inserted.map(\.persistentIdentifier))
            insertOrder.removeAll { inserted.contains($0) }
        }
        recordSavedUpdatesAndDeletes(request)
    }

    /// Updates the context after one store committed `request`'s updates and deletes.
    private func recordSavedUpdatesAndDeletes(_ request: DataStoreSaveChangesRequest) {
        let log = registry.log
        for snapshot in request.updated {
            let id = snapshot.persistentIdentifier
            guard let registration = registry[id] else { continue }
            // The change set merged into what the context saw: attributes it did not send keep the values it
            // last read (a fetch refreshes them from the store).
            var saved = snapshot.values
            if case .saved(let previous) = registration.baseline {
                saved = previous.merging(snapshot.values) { _, new in new }
            }
            registry[id]?.markSaved(saved, resolver: relationshipResolver, log: log)
        }
        // Struct models are values: once saved there is nothing to track, and keeping them would make every
        // later save compare them all. Their identifiers still resolve through `aliases`. (Inserted structs
        // were not re-registered above.)
        for snapshot in request.updated {
            let id = snapshot.persistentIdentifier
            if let registration = registry[id], !(type(of: registration.model) is AnyObject.Type) {
                registry[id] = nil
            }
        }
        registry.log.forget(request.updated.map(\.persistentIdentifier))
        let deleted = Set(request.deleted.map(\.persistentIdentifier))
        for id in deleted { forget(id) }
        deleteOrder.removeAll { deleted.contains($0) }
    }
}
