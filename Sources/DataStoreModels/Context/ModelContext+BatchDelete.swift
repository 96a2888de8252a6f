public import DataStoreCore
public import Foundation

extension ModelContext {
    /// Removes every model of `model` that matches `predicate` (every one, without a predicate) from the store
    /// during the next save, as SwiftData's `delete(model:where:includeSubclasses:)`.
    ///
    /// At the next ``save()``, after the context's other changes are saved, the store deletes the models that
    /// match then, as one transaction: through the store's `DataStoreBatching` conformance (all of this
    /// package's stores but the insert-only time-series store), or, for a store without one, by fetching the
    /// matches and saving their deletes. History records each delete with its tombstone, delete rules apply
    /// and the models' unique values are free again. Until then this context's fetches leave the matching
    /// models out, unsaved inserts included; a model a cascade will delete still shows until the save.
    ///
    /// - Parameters:
    ///   - model: The type of the models to delete.
    ///   - predicate: Which models to delete; `nil` deletes every model of the type.
    ///   - includeSubclasses: Kept for SwiftData's signature: this package's models have no subclasses.
    /// - Throws: `DataStoreError.modelTypeNotInContainer` for a type outside the container.
    public func delete<T: PersistentModel>(
        model: T.Type, where predicate: Predicate<T>? = nil, includeSubclasses: Bool = true
    ) throws {
        guard container.storeIdentifierByEntity[T.entityName] != nil else {
            throw DataStoreError.modelTypeNotInContainer(entity: T.entityName)
        }
        pendingBatchDeletes.append(
            PendingBatchDelete(T.self, predicate: predicate, includeSubclasses: includeSubclasses))
        changed()
    }

    /// Runs the pending batch deletes in order, each removed once its store committed it, then forgets the
    /// tracked models their stores no longer hold. Called by `save()` inside the container's operation.
    func runPendingBatchDeletes() throws {
        guard !pendingBatchDeletes.isEmpty else { return }
        var touched: Set<String> = []
        defer { forgetModelsGone(from: touched) }
        while let pending = pendingBatchDeletes.first {
            let store = try container.connection(forEntity: pending.entityName)
            try pending.run(self, store, editingState)
            touched.insert(store.identifier)
            pendingBatchDeletes.removeFirst()
        }
    }

    /// Forgets the saved models tracked here whose rows the stores `identifiers` no longer hold: the batch
    /// deletes' matches and what their delete rules cascaded to, which the context cannot tell from the request.
    private func forgetModelsGone(from identifiers: Set<String>) {
        var tracked: [String: Set<PersistentIdentifier>] = [:]
        for (id, registration) in registry.entries {
            guard case .saved = registration.baseline, identifiers.contains(id.storeIdentifier ?? "") else {
                continue
            }
            tracked[id.entityName, default: []].insert(id)
        }
        for (entity, ids) in tracked {
            guard let type = container.modelTypes.types[entity],
                let present = try? existingIdentifiers(type, ids)
            else { continue }
            for id in ids where !present.contains(id) {
                forget(id)
                deleteOrder.removeAll { $0 == id }
            }
        }
    }

    private func existingIdentifiers<Model: PersistentModel>(_: Model.Type, _ ids: Set<PersistentIdentifier>)
        throws -> Set<PersistentIdentifier>
    {
        var descriptor = FetchDescriptor<Model>(predicate: #Predicate { ids.contains($0.persistentModelID) })
        descriptor.includePendingChanges = false
        return Set(try fetchSnapshots(descriptor).map(\.persistentIdentifier))
    }
}
