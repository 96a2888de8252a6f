public import DataStoreCore

extension ModelContext {
    /// Visits every model the descriptor matches, in batches, as SwiftData's `enumerate` does.
    ///
    /// Each batch's models are made before the block sees the first of them, so the first read of a
    /// relationship loads what the whole batch refers to in one store request. After each batch, the context
    /// lets go of the models the batch brought in (its own and those its relationships loaded) that are
    /// unchanged and that nothing else holds, so memory stays flat however many models match. A model you keep
    /// (in an array, or through a relationship of a model the context still tracks) stays tracked, so a change
    /// you make to it later is saved.
    ///
    /// - Parameters:
    ///   - descriptor: Which models to visit, in what order.
    ///   - batchSize: How many models to materialize at once.
    ///   - allowEscapingMutations: Unless `true`, enumerating a context with unsaved changes throws, and so
    ///     does a batch whose block left changes behind.
    ///   - block: Called with each model in turn.
    /// - Throws: `DataStoreError/unsavedChangesDuringEnumeration(changeCount:)`, or what `block` throws (the
    ///   enumeration stops there, and lets go of that batch's models as it does after a whole batch).
    public func enumerate<Model: PersistentModel>(
        _ descriptor: FetchDescriptor<Model>, batchSize: Int = 5000, allowEscapingMutations: Bool = false,
        block: (Model) throws -> Void
    ) throws {
        try checkNoEscapingMutations(allowEscapingMutations)
        let snapshots = try fetchSnapshots(descriptor)
        let size = max(1, batchSize)
        var start = 0
        while start < snapshots.count {
            let batch = snapshots[start..<min(start + size, snapshots.count)]
            let trackedBefore = Set(batch.compactMap { resolve($0.persistentIdentifier) })
            // A resolver per batch: it notes only this batch's models, and lists what it loads for them.
            let resolver = makeResolver(for: Model.self, listingLoads: true)
            func letGoOfTheBatch() {
                var broughtIn = batch.map(\.persistentIdentifier).filter { !trackedBefore.contains($0) }
                broughtIn += resolver?.loadedIdentifiers ?? []
                letGo(broughtIn)
            }
            do {
                let models: [Model] = try batch.map { try materialize($0, resolver: resolver) }
                for model in models { try block(model) }
            } catch {
                // A block that stops the enumeration leaves nothing behind that a finished batch would not.
                letGoOfTheBatch()
                throw error
            }
            try checkNoEscapingMutations(allowEscapingMutations)
            letGoOfTheBatch()
            start += size
        }
    }

    private func checkNoEscapingMutations(_ allowed: Bool) throws(DataStoreError) {
        guard !allowed, hasChanges else { return }
        throw .unsavedChangesDuringEnumeration(changeCount: pendingChangeCount)
    }

    /// Stops tracking the models among `ids` that are saved, unchanged and held by nothing but the context,
    /// making their loaded relationships faults first (so that none of them holds another).
    ///
    /// A model something else holds (the caller's array, or a loaded relationship of a model the context still
    /// tracks) stays tracked: were it let go, a change made to it afterwards would never be saved.
    private func letGo(_ ids: [PersistentIdentifier]) {
        var clean: [PersistentIdentifier] = []
        clean.reserveCapacity(ids.count)
        // Only these can hold a change (as for `save()`): the others need no comparing with their baseline.
        let mayHaveChanged = Set(registry.mayHaveChanged)
        for id in ids {
            guard let registration = registry[id], case .saved = registration.baseline,
                !registration.isDeleted, registration.twins.isEmpty,
                !mayHaveChanged.contains(id) || !isUpdated(registration)
            else { continue }
            clean.append(id)
            if container.modelTypes.haveRelationships { unloadRelationships(of: registration.model) }
        }
        for id in clean {
            var instance: AnyObject?
            var baseline = Registration.Baseline.none
            do {
                // In a scope of its own, so that the removed registration's reference is gone at the check.
                guard let removed = registry.removeValue(forKey: id) else { continue }
                instance = removed.instance
                baseline = removed.baseline
            }
            // The registry's reference is gone: another one is somebody else's.
            if instance != nil, !isKnownUniquelyReferenced(&instance),
                let model = instance as? any PersistentModel
            {
                registry[id] = Registration(model: model, baseline: baseline)
            }
        }
    }
}
