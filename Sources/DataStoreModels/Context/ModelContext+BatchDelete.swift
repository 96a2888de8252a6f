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
    /// models out, unsaved inserts included; a model a cascade will delete still shows until the save. After
    /// it, the models this context tracks read what the store holds: the deleted ones are forgotten, and a
    /// relationship the delete rules nullified reads `nil` or leaves the deleted models out.
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

    /// Runs the pending batch deletes in order, each removed once its store committed it, then brings the
    /// tracked models in line with what their stores hold. Called by `save()` inside the container's operation.
    func runPendingBatchDeletes() throws {
        guard !pendingBatchDeletes.isEmpty else { return }
        var touched: Set<String> = []
        defer { refreshModelsAfterBatchDeletes(in: touched) }
        while let pending = pendingBatchDeletes.first {
            let store = try container.connection(forEntity: pending.entityName)
            try pending.run(self, store, editingState)
            touched.insert(store.identifier)
            pendingBatchDeletes.removeFirst()
        }
    }

    /// Brings the saved models tracked here in line with the rows the stores `identifiers` hold after batch
    /// deletes, which the context cannot tell from the requests: it forgets the models deleted (the matches and
    /// what their delete rules cascaded to) and gives the others the values the rules changed (a relationship
    /// nullified on the side of a model that stays), as it does with a save's delete rule changes.
    private func refreshModelsAfterBatchDeletes(in identifiers: Set<String>) {
        var tracked: [String: Set<PersistentIdentifier>] = [:]
        for (id, registration) in registry.entries {
            guard case .saved = registration.baseline, identifiers.contains(id.storeIdentifier ?? "") else {
                continue
            }
            tracked[id.entityName, default: []].insert(id)
        }
        for (entity, ids) in tracked {
            guard let type = container.modelTypes.types[entity], let rows = try? currentRows(type, ids) else {
                continue
            }
            var changes: [PlannedChange] = []
            for id in ids {
                guard let row = rows[id] else {
                    changes.append(PlannedChange(kind: .delete, identifier: id))
                    continue
                }
                guard case .saved(let saved)? = registry[id]?.baseline else { continue }
                let changed = DataStoreSnapshot(persistentIdentifier: id, values: saved).changedAttributes(
                    to: row)
                guard !changed.isEmpty else { continue }
                changes.append(
                    PlannedChange(
                        kind: .update, identifier: id,
                        values: row.values.filter { changed.contains($0.key) }, updatedAttributes: changed))
            }
            applyDeleteRuleChanges(changes)
        }
    }

    /// The stored rows of the models `ids` of `Model` that the store still holds, by identifier.
    private func currentRows<Model: PersistentModel>(_: Model.Type, _ ids: Set<PersistentIdentifier>)
        throws -> [PersistentIdentifier: DataStoreSnapshot]
    {
        var descriptor = FetchDescriptor<Model>(predicate: #Predicate { ids.contains($0.persistentModelID) })
        descriptor.includePendingChanges = false
        let rows = try fetchSnapshots(descriptor)
        return Dictionary(rows.map { ($0.persistentIdentifier, $0) }) { first, _ in first }
    }
}
