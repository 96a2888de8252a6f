import DataStoreCore

/// Inserts of new models without relationships wait in a list until something needs them registered.
///
/// The common use of a context is a run of inserts and a save. Registering each new model on insert hashed
/// it into the registry, which grew step by step, and connected a class instance to the change log under the
/// process-wide lock, one at a time; the save then looked each one up again, to read it and to mark it saved.
/// That was most of what the model layer added to the store's own save. A new model without relationships
/// needs no registration until the context is asked about it: a pending insert saves the values it has at
/// the save (its edits until then need no log), and `insert` finds an earlier insert of the same model
/// through `aliases` or its identifier. So `insert` appends it to ``ModelContext/deferredInserts`` (as its own
/// type: a struct model boxed in an existential would need an allocation of its own), and
/// - a save whose pending inserts are all deferred reads them from the list; once the store committed them it
///   registers the class models as saved, all at once (a saved struct is not tracked);
/// - any other use of ``ModelContext/registry`` registers them all first, in one step.
extension ModelContext {
    /// What `insert` needs to know about a model type, looked up once per run of inserts of that type.
    struct InsertedTypeFacts {
        let type: ObjectIdentifier
        let entity: String
        /// The store the container routes the entity to, or `nil` if the container does not hold it.
        let store: String?
        let hasRelationships: Bool
        let isClass: Bool

        /// A model without relationships: its insert may be deferred.
        var defersInserts: Bool { !hasRelationships }
    }

    /// The registrations, with every deferred insert registered first.
    var registry: ModelRegistry {
        _read {
            if !deferredInserts.isEmpty { registerDeferredInserts() }
            yield registered
        }
        _modify {
            if !deferredInserts.isEmpty { registerDeferredInserts() }
            yield &registered
            // Cheap enough for every registration: two flags and a set's emptiness.
            if autosaveEnabled, autosaveTimer == nil, registered.hasModelsToCompare { startAutosaveTimer() }
        }
    }

    /// Registers the deferred inserts, making room for all of them at once.
    func registerDeferredInserts() {
        let deferred = deferredInserts
        deferredInserts = DeferredInserts()
        deferredInsertsRegistered += deferred.count
        registered.reserveCapacity(adding: deferred.count)
        deferred.forEachInsert { _, id, model in
            registered[id] = Registration(model: model, baseline: .none)
        }
    }

    /// The facts of `Model` for `insert`.
    func insertedTypeFacts<Model: PersistentModel>(_: Model.Type) -> InsertedTypeFacts {
        if let last = lastInsertedType, last.type == ObjectIdentifier(Model.self) { return last }
        let hasRelationships = ModelTypeFacts.hasRelationships(Model.self)
        let facts = InsertedTypeFacts(
            type: ObjectIdentifier(Model.self), entity: Model.entityName,
            store: container.storeIdentifierByEntity[Model.entityName], hasRelationships: hasRelationships,
            isClass: Model.self is AnyObject.Type)
        lastInsertedType = facts
        return facts
    }

    /// Whether the registration of a new model `insert` assigned `id` may be deferred: a model without
    /// relationships, under an identifier nothing is registered under (a model made with the key of one the
    /// context tracks replaces it, which the registry does).
    func defersRegistration(of id: PersistentIdentifier, facts: InsertedTypeFacts) -> Bool {
        facts.defersInserts && (registered.isEmpty || !registered.contains(id))
    }

    /// Registers the deferred inserts a store committed as `saved` (the same models, in the same order): each
    /// class model as saved with the values sent, its instance connected to the change log with the others
    /// under one lock, as a fetch registers what it made. Struct models are values: once saved nothing tracks
    /// them, and `aliases` still resolves their copies.
    ///
    /// The class models' values move out of `saved` into their registrations (an empty dictionary is left in
    /// their place): a copy would retain each dictionary, made long before and out of the cache by now in a
    /// save of thousands, and the request's end release it again.
    func registerSavedDeferredInserts(_ saved: inout [DataStoreSnapshot]) {
        var deferred = deferredInserts
        deferredInserts = DeferredInserts()
        assert(
            deferred.count == saved.count
                && zip(deferred.identifiers, saved).allSatisfy { $0 == $1.persistentIdentifier })
        var instances: [AnyObject] = []
        var plainInstances: [AnyObject] = []
        var reserved = false
        let count = deferred.count
        saved.withUnsafeMutableBufferPointer { saved in
            deferred.takeEachClassModel { position, id, model in
                if !reserved {
                    registered.reserveCapacity(adding: count)
                    reserved = true
                }
                var values: [String: SnapshotValue] = [:]
                swap(&values, &saved[position].values)
                let registration = Registration(model: model, baseline: .saved(values))
                let connection = registration.connection
                registered.register(fetched: id, registration, reportsChanges: connection?.reports ?? false)
                if let connection {
                    if connection.reports {
                        instances.append(connection.instance)
                    } else {
                        plainInstances.append(connection.instance)
                    }
                }
            }
        }
        guard reserved else { return }
        registered.track(fetched: instances, reports: true)
        registered.track(fetched: plainInstances, reports: false)
        if autosaveEnabled, autosaveTimer == nil, registered.hasModelsToCompare { startAutosaveTimer() }
    }

    /// Whether every pending insert is deferred, so that a save may read them from the list.
    var insertsAreAllDeferred: Bool {
        guard !deferredInserts.isEmpty, deferredInserts.count == insertOrder.count else { return false }
        assert(
            deferredInserts.identifiers == insertOrder,
            "the deferred inserts are the last pending inserts, in order")
        return true
    }
}
