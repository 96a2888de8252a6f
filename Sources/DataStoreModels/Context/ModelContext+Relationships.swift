import DataStoreCore

extension ModelContext {
    /// A resolver for one fetch of `Model`, or `nil` when it has no relationships.
    func makeResolver<Model: PersistentModel>(for _: Model.Type, listingLoads: Bool = false)
        -> ContextRelationshipResolver?
    {
        ModelTypeFacts.hasRelationships(Model.self)
            ? ContextRelationshipResolver(context: self, listingLoads: listingLoads) : nil
    }

    /// Loads the relationships named by `keyPaths` for every model the fetch brought in.
    func prefetch<Model: PersistentModel>(
        _ keyPaths: [PartialKeyPath<Model>], through resolver: ContextRelationshipResolver
    ) {
        for keyPath in keyPaths {
            guard let destination = Model.schemaAttribute(for: keyPath)?.relationship?.destination else {
                continue
            }
            resolver.prefetch(destination)
        }
    }

    /// Inserts the new models `model`'s loaded relationships hold, and theirs in turn, as SwiftData inserts
    /// a model's related models with it.
    func insertRelatedModels<Model: PersistentModel>(of model: Model) {
        // Most inserts are of types without relationships: no attribute to copy and look at.
        guard ModelTypeFacts.hasRelationships(Model.self) else { return }
        for attribute in Model.schemaAttributes {
            guard let relationship = attribute.relationship else { continue }
            for related in relationship.loadedModels(model) where resolve(related.persistentModelID) == nil {
                guard !related.persistentModelID.isResolved else { continue }
                insert(related)
            }
        }
    }

    /// Inserts the new models that relationships of pending inserts and changed models (`updated`) gained since
    /// those were inserted or saved, as a save does first (``prepareRelationshipsForSave(updated:)``), without
    /// its checks.
    func insertNewlyRelatedModels(updated: [PersistentIdentifier]) {
        insertDroppedModels()
        forEachPendingModel(updated: updated) { insertRelatedModels(of: $0.model) }
    }

    /// Inserts the new models that a relationship of a tracked model held and let go of since the last save
    /// (``ModelChangeLog/noteDropped(_:)``): SwiftData inserts a model when it is related, and unrelating it
    /// does not take the insert back, so the save inserts it, related to nothing it let go of. Walking the
    /// pending models finds only the new models they still hold.
    func insertDroppedModels() {
        for dropped in registry.log.takeDropped() {
            guard let model = dropped as? any PersistentModel, !model.persistentModelID.isResolved,
                resolve(model.persistentModelID) == nil
            else { continue }
            insert(model)
        }
    }

    /// Calls `visit` once with each pending insert and changed model (`updated`, as `updatedIdentifiers`
    /// finds them), and with each model inserted meanwhile (a relationship's new models, which `visit` may
    /// insert): only those can hold a relationship that gained something since the last save.
    private func forEachPendingModel<Failure: Error>(
        updated: [PersistentIdentifier], _ visit: (Registration) throws(Failure) -> Void
    ) throws(Failure) {
        var visited = Set<PersistentIdentifier>()
        var queue = insertOrder + updated
        while let id = queue.popLast() {
            guard visited.insert(id).inserted, let registration = registry[id], !registration.isDeleted else {
                continue
            }
            let before = insertOrder.count
            try visit(registration)
            queue.append(contentsOf: insertOrder[before...])
        }
    }

    /// Applies the delete rules of `model`, deleted before it was ever saved, in memory: the store never sees
    /// it, so they cannot run there. What a `.cascade` relationship holds is deleted too; every relationship is
    /// then emptied through its property, so that each model it held drops `model` from its inverse side. Any
    /// other rule (`.nullify`, `.deny`, `.noAction`) empties the relationship alike: nothing stored refers to
    /// the model, so nothing could deny its delete or keep its identifier.
    func applyDeleteRulesInMemory<Model: PersistentModel>(to model: Model) {
        guard ModelTypeFacts.hasRelationships(Model.self) else { return }
        for attribute in Model.schemaAttributes {
            guard let relationship = attribute.relationship else { continue }
            let related = relationship.loadedModels(model)
            guard !related.isEmpty else { continue }
            if relationship.deleteRule == .cascade {
                for other in related { delete(other) }
            }
            relationship.keepOnly(model) { _ in false }
        }
    }

    /// Applies the delete rules of `model`, a saved model being deleted, to the models its relationships gained
    /// since its last save (`saved` are its saved values): the store's rules follow what it holds and cannot
    /// reach them. A `.cascade` relationship's gains are deleted too; a `.nullify` or `.noAction` one lets go of
    /// them through its setter, so that they drop `model` from their inverse side; a `.deny` one keeps them, and
    /// the save refuses them for naming a deleted model. SwiftData applies the rules to the relationships as
    /// they are at the save, so this is what it does to them.
    func applyDeleteRules<Model: PersistentModel>(toGainsOf model: Model, saved: [String: SnapshotValue]) {
        guard ModelTypeFacts.hasRelationships(Model.self) else { return }
        for attribute in Model.schemaAttributes {
            guard let relationship = attribute.relationship, relationship.deleteRule != .deny else {
                continue
            }
            let held = Set(saved[attribute.name]?.relatedIdentifiers ?? [])
            // A relationship not loaded holds its saved value: it gained nothing.
            let gained = relationship.loadedModels(model).filter { !held.contains($0.persistentModelID) }
            guard !gained.isEmpty else { continue }
            if relationship.deleteRule == .cascade {
                for other in gained { delete(other) }
            } else {
                relationship.keepOnly(model) { held.contains($0) }
            }
        }
    }

    /// Before a save: inserts new models that relationships gained since they were inserted, and checks
    /// that each model a relationship gained can be stored there. `updated` are the changed models, as
    /// `updatedIdentifiers` finds them.
    ///
    /// - Throws: `DataStoreError/invalidRelationship(entity:relationship:identifier:reason:)` for a deleted
    ///   model, an instance other than the one this context tracks for its identifier (a model of another
    ///   context), or a model of another container.
    func prepareRelationshipsForSave(updated: [PersistentIdentifier]) throws(DataStoreError) {
        guard container.modelTypes.haveRelationships else { return }
        insertDroppedModels()
        // Models whose relationships gained something are inserted or changed: no other needs a look.
        try forEachPendingModel(updated: updated) { (registration) throws(DataStoreError) in
            try checkRelationships(of: registration.model, baseline: registration.baseline)
        }
    }

    private func checkRelationships<Model: PersistentModel>(of model: Model, baseline: Registration.Baseline)
        throws(DataStoreError)
    {
        for attribute in Model.schemaAttributes {
            guard let relationship = attribute.relationship else { continue }
            let loaded = relationship.loadedModels(model)
            guard !loaded.isEmpty else { continue }
            var held = Set<PersistentIdentifier>()
            if case .saved(let values) = baseline {
                held = Set(values[attribute.name]?.relatedIdentifiers ?? [])
            }
            for related in loaded where !held.contains(related.persistentModelID) {
                try checkGained(related, by: Model.entityName, relationship: attribute.name)
            }
        }
    }

    private func checkGained(_ related: any PersistentModel, by entity: String, relationship: String)
        throws(DataStoreError)
    {
        let id = related.persistentModelID
        guard let known = resolve(id), let registration = registry[known] else {
            if !id.isResolved {
                insert(related)
                return
            }
            if aliases[id.primaryKey] == id {
                // This context gave it its identifier (an insert), and tracks it no more: deleted (before or
                // after a save) or discarded by a rollback, while a relationship without an inverse held it.
                throw .invalidRelationship(
                    entity: entity, relationship: relationship, identifier: id,
                    reason: "the related model was deleted (or rolled back) in this context")
            }
            let elsewhere =
                container.storeIdentifierByEntity[id.entityName] == id.storeIdentifier
                ? "another context; fetch it in this one (model(for:))" : "another container"
            throw .invalidRelationship(
                entity: entity, relationship: relationship, identifier: id,
                reason: "the related model is not tracked by this context: it belongs to \(elsewhere)")
        }
        if registration.isDeleted {
            throw .invalidRelationship(
                entity: entity, relationship: relationship, identifier: known,
                reason: "the related model is deleted")
        }
        if (registration.model as AnyObject) !== (related as AnyObject) {
            throw .invalidRelationship(
                entity: entity, relationship: relationship, identifier: known,
                reason:
                    "the related instance is not the one this context tracks (it came from another context)")
        }
    }

    /// Applies what a store's delete rules did (or an undo wrote) to the models this context tracks: deleted
    /// models are forgotten, and updated ones take their saved values.
    func applyDeleteRuleChanges(_ changes: [PlannedChange]) {
        for change in changes {
            guard let id = resolve(change.identifier), var registration = registry[id] else { continue }
            switch change.kind {
            case .delete:
                forget(id)
                insertOrder.removeAll { $0 == id }
                deleteOrder.removeAll { $0 == id }
            default:
                guard case .saved(var saved) = registration.baseline else { continue }
                saved.merge(change.values) { _, new in new }
                var model = registration.model
                // The store wrote these values from this model type's values, so they convert.
                registry.log.suspended { try? applyChanged(change.values, to: &model) }
                registration.model = model
                registration.baseline = .saved(saved)
                registry[id] = registration
            }
        }
    }

    /// Makes the loaded relationships of every model this context tracks faults again, for its `deinit`.
    ///
    /// A loaded relationship holds its models, and its loaded inverse holds it back (`trip.livingAccommodation`
    /// and `stay.trip`): while the context lives it holds them all anyway, but once it is gone such a pair would
    /// keep itself alive forever. As faults they hold identifiers only, so models nobody else holds are freed; a
    /// model somebody still holds reads its relationship again through a context of its own (the same values;
    /// another instance of a related model than the one read before). That goes for the pending deletes the
    /// context discards with itself too. The pending inserts it discards (a request that fails before its save
    /// leaves them), which nothing stored backs, are related to nothing afterwards.
    func unloadRelationshipsOfTrackedModels() {
        guard container.modelTypes.haveRelationships, !registered.isEmpty else { return }
        let resolver = ContextRelationshipResolver(orphanedFrom: container)
        // Each model type's unloaders (`nil` for a type without relationships), found once per type. A short
        // list searched in order, not a dictionary: a container has a few model types, and comparing a few
        // type identifiers costs less than hashing one, in a deinit that visits every model.
        var tables: [(type: ObjectIdentifier, table: AnyObject?)] = []
        registered.forEachInstance { model, isUnsavedInsert in
            guard !isUnsavedInsert else {
                Self.detachRelationships(of: model)
                return
            }
            func unload<Model: PersistentModel>(_ model: Model) {
                let type = ObjectIdentifier(Model.self)
                let table: AnyObject?
                if let known = tables.first(where: { $0.type == type }) {
                    table = known.table
                } else {
                    table = RelationshipUnloaders.of(Model.self)
                    tables.append((type, table))
                }
                guard let table else { return }
                unsafeDowncast(table, to: RelationshipUnloaders<Model>.self).unload(model, resolver: resolver)
            }
            unload(model)
        }
    }

    /// Forgets a model the store deleted (or a pending insert `rollback()` discards), making its loaded
    /// relationships faults again: a deleted trip and the stay its cascade deleted, or a discarded trip and its
    /// discarded stay, would otherwise hold each other once the context no longer holds them. Reading such a
    /// relationship afterwards finds what the store still holds.
    func forget(_ id: PersistentIdentifier) {
        guard let registration = registry.removeValue(forKey: id), container.modelTypes.haveRelationships
        else {
            return
        }
        for model in [registration.model] + registration.twins {
            if registration.isUnsavedInsert {
                Self.detachRelationships(of: model)
            } else {
                unloadRelationships(of: model)
            }
        }
    }

    /// Makes every relationship of `model`, a discarded insert, hold nothing (see `RelationshipAccess.detach`).
    private static func detachRelationships(of model: any PersistentModel) {
        func detach<Model: PersistentModel>(_ model: Model) {
            guard ModelTypeFacts.hasRelationships(Model.self) else { return }
            for attribute in Model.schemaAttributes { attribute.relationship?.detach(model) }
        }
        detach(model)
    }

    /// Makes the loaded relationships of `model`, which this context tracks, faults that load through it again.
    func unloadRelationships(of model: any PersistentModel) {
        Self.unloadRelationships(of: model, resolver: relationshipResolver)
    }

    private static func unloadRelationships(
        of model: any PersistentModel, resolver: ContextRelationshipResolver
    ) {
        func unload<Model: PersistentModel>(_ model: Model) {
            RelationshipUnloaders.of(Model.self)?.unload(model, resolver: resolver)
        }
        unload(model)
    }

    /// Sets the attributes `values` names on `model`, leaving the others as they are.
    func applyChanged<Model: PersistentModel>(
        _ values: [String: SnapshotValue], to model: inout Model
    )
        throws(DataStoreError)
    {
        for attribute in Model.schemaAttributes {
            guard let value = values[attribute.name] else { continue }
            try attribute.setValue(value, on: &model, resolver: relationshipResolver)
        }
    }
}
