import DataStoreCore
import Foundation

extension ModelContext {
    /// Captures the unsaved edits and discards them (as ``rollback()``), for an undo.
    func discardUnsavedEdits() -> UnsavedEdits {
        let updated = updatedIdentifiers.sorted().compactMap {
            id -> (any PersistentModel, [String: SnapshotValue])? in
            guard let registration = registry[id] else { return nil }
            return (registration.model, registration.currentValues)
        }
        let inserted = insertedModelsArray.map { (model: $0, values: $0.snapshotValues) }
        let edits = UnsavedEdits(
            inserted: inserted, updated: updated.map { (model: $0.0, values: $0.1) },
            deleted: deletedModelsArray, batchDeletes: pendingBatchDeletes)
        rollback()
        return edits
    }

    /// Makes edits an undo discarded pending again, for a redo.
    func restoreUnsavedEdits(_ edits: UnsavedEdits) {
        for (model, _) in edits.inserted {
            let id = model.persistentModelID
            registry[id] = Registration(model: model, baseline: .none)
            insertOrder.append(id)
        }
        // Once every insert is registered again, so that their relationships to one another resolve.
        for (model, values) in edits.inserted {
            var restored = model
            registry.log.suspended { try? applyChanged(values, to: &restored) }
            registry[model.persistentModelID]?.model = restored
        }
        for (model, values) in edits.updated {
            let id = model.persistentModelID
            guard var registration = registry[id] else { continue }
            var restored = model
            // The values came from this model type, so they convert.
            registry.log.suspended { try? applyChanged(values, to: &restored) }
            registration.model = restored
            registry[id] = registration
            registry.log.note(id)
        }
        for model in edits.deleted {
            let id = model.persistentModelID
            if registry[id] == nil {
                registry[id] = Registration(model: model, baseline: .unknown, isDeleted: true)
            } else {
                registry[id]?.isDeleted = true
            }
            deleteOrder.append(id)
        }
        pendingBatchDeletes = edits.batchDeletes
        changed()
    }

    /// Takes back `transactions` (commit order) by writing the inverse of each, newest first, by `author`;
    /// returns the transactions written, in commit order. Everything is checked before anything is written;
    /// later transactions in `ignored` (the undo manager's own, each paired with the one that took it back) do
    /// not count as other authors' changes.
    ///
    /// - Throws: `undoUnavailable` or `undoConflict` with nothing written; ``PartialRevert`` when a store
    ///   throws after some inverses were written.
    func revert(
        _ transactions: [SavedTransaction], author: String, ignoring ignored: Set<SavedTransaction>,
        foreign: ForeignHistory
    ) throws -> [SavedTransaction] {
        guard !hasChanges else {
            throw DataStoreError.undoUnavailable(
                reason: "the context has unsaved changes; save or roll them back first")
        }
        let inverses = try transactions.map { try InverseTransaction($0, in: container) }
        let own = ignored.union(transactions)
        for inverse in inverses {
            try inverse.checkNoLaterChanges(ignoring: own, foreign: foreign, in: container)
        }
        var written: [SavedTransaction] = []
        defer {
            if !written.isEmpty {
                unsavedChanges.signal()
                container.localSaves.signal()
            }
        }
        for (index, inverse) in inverses.enumerated().reversed() {
            do {
                if let saved = try write(inverse, author: author) { written.append(saved) }
            } catch {
                let failure = (error as? DataStoreError).map(Self.undoError) ?? error
                guard !written.isEmpty else { throw failure }
                throw PartialRevert(
                    written: written, remaining: Array(transactions[...index]), error: failure)
            }
        }
        return written
    }

    /// Writes one inverse transaction and brings the context's models to what it wrote.
    private func write(_ inverse: InverseTransaction, author: String) throws -> SavedTransaction? {
        let connection = try container.connection(named: inverse.saved.store)
        let request = try inverse.request(
            editingState: EditingState(id: editingIdentifier, author: author), schema: container.schema,
            exists: { try existingModels($0) })
        let outcome = try container.lifecycle.use { try connection.save(request) }
        // The context's models take what the inverse wrote, as they take what delete rules did.
        applyDeleteRuleChanges(
            request.updated.map {
                PlannedChange(kind: .update, identifier: $0.persistentIdentifier, values: $0.values)
            }
                + request.deleted.map { PlannedChange(kind: .delete, identifier: $0.persistentIdentifier) }
                + outcome.deleteRuleChanges)
        return outcome.position.map { SavedTransaction(store: connection.identifier, position: $0) }
    }

    /// Which of `identifiers` name models the store holds now.
    private func existingModels(_ identifiers: Set<PersistentIdentifier>) throws -> Set<PersistentIdentifier>
    {
        var found = Set<PersistentIdentifier>()
        for (entity, ids) in Dictionary(grouping: identifiers, by: \.entityName) {
            guard let type = container.modelTypes.types[entity] else { continue }
            func fetch<Model: PersistentModel>(_: Model.Type) throws -> [PersistentIdentifier] {
                let wanted = Set(ids)
                var descriptor = FetchDescriptor<Model>(
                    predicate: #Predicate { wanted.contains($0.persistentModelID) })
                descriptor.includePendingChanges = false
                return try fetchSnapshots(descriptor).map(\.persistentIdentifier)
            }
            found.formUnion(try fetch(type))
        }
        return found
    }

    /// A store's `mergeConflict` while writing an inverse means another author changed the values between
    /// the check and the write: an undo conflict.
    private static func undoError(_ error: DataStoreError) -> DataStoreError {
        guard error.code == .mergeConflict, let identifier = error.identifier else { return error }
        return .undoConflict(
            store: error.store ?? "?", identifier: identifier, attribute: error.attribute ?? "?",
            reason: "changed by another author while the undo was written")
    }
}
