import DataStoreCore

/// Inserts of new struct models wait in a list until something needs them registered.
///
/// The common use of a context is a run of inserts and a save. Registering each new model on insert hashed
/// it into the registry, which grew step by step, and the save looked each one up again to read it: for
/// struct models without relationships that was most of what the model layer added to the store's own save.
/// Such a model needs no registration until the context is asked about it: nothing tracks a struct's edits,
/// and `insert` finds an earlier insert of the same value through `aliases`. So `insert` appends it to
/// ``ModelContext/deferredInserts``, and
/// - a save of nothing but deferred inserts reads them from the list and forgets them once saved;
/// - any other use of ``ModelContext/registry`` registers them all first, in one step.
extension ModelContext {
    /// A new struct model waiting to be registered.
    struct DeferredInsert {
        let id: PersistentIdentifier
        let model: any PersistentModel
    }

    /// What `insert` needs to know about a model type, looked up once per run of inserts of that type.
    struct InsertedTypeFacts {
        let type: ObjectIdentifier
        let entity: String
        /// The store the container routes the entity to, or `nil` if the container does not hold it.
        let store: String?
        let hasRelationships: Bool
        /// A struct without relationships: its insert may be deferred.
        let defersInserts: Bool
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
        deferredInserts = []
        deferredInsertsRegistered += deferred.count
        registered.reserveCapacity(adding: deferred.count)
        for insert in deferred {
            registered[insert.id] = Registration(model: insert.model, baseline: .none)
        }
    }

    /// The facts of `Model` for `insert`.
    func insertedTypeFacts<Model: PersistentModel>(_: Model.Type) -> InsertedTypeFacts {
        if let last = lastInsertedType, last.type == ObjectIdentifier(Model.self) { return last }
        let hasRelationships = ModelTypeFacts.hasRelationships(Model.self)
        let facts = InsertedTypeFacts(
            type: ObjectIdentifier(Model.self), entity: Model.entityName,
            store: container.storeIdentifierByEntity[Model.entityName], hasRelationships: hasRelationships,
            defersInserts: !(Model.self is AnyObject.Type) && !hasRelationships)
        lastInsertedType = facts
        return facts
    }

    /// Defers the registration of a new model `insert` assigned `id`, if it may be deferred: a struct without
    /// relationships, under an identifier nothing is registered under (a model made with the key of one the
    /// context tracks replaces it, which the registry does). Returns whether it did.
    func deferRegistration<Model: PersistentModel>(
        of model: Model, as id: PersistentIdentifier, facts: InsertedTypeFacts
    )
        -> Bool
    {
        guard facts.defersInserts, registered.isEmpty || !registered.contains(id) else { return false }
        deferredInserts.append(DeferredInsert(id: id, model: model))
        return true
    }

    /// Whether every pending insert is deferred, so that a save may read them from the list.
    var insertsAreAllDeferred: Bool {
        guard !deferredInserts.isEmpty, deferredInserts.count == insertOrder.count else { return false }
        assert(
            zip(deferredInserts, insertOrder).allSatisfy { $0.id == $1 },
            "the deferred inserts are the last pending inserts, in order")
        return true
    }
}
