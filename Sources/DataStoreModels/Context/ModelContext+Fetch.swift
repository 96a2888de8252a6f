public import DataStoreCore
import DataStoreKit
import Foundation

extension ModelContext {
    /// Fetches the models that match the descriptor.
    ///
    /// With `includePendingChanges` (the default, as in SwiftData) the result includes the context's unsaved
    /// inserts, reflects its unsaved changes and leaves out its unsaved deletes (and the models its pending
    /// batch deletes match); without it, only what the store holds. Class instances the context already tracks are returned as the same instance, refreshed
    /// from the store unless they have unsaved changes.
    public func fetch<Model: PersistentModel>(_ descriptor: FetchDescriptor<Model>) throws -> [Model] {
        let resolver = makeResolver(for: Model.self)
        let snapshots = try fetchSnapshots(descriptor)
        let models: [Model] =
            Model.self is AnyObject.Type
            ? try materializeInstances(snapshots, resolver: resolver)
            : try snapshots.map { try materialize($0, resolver: resolver) }
        if let resolver { prefetch(descriptor.relationshipKeyPathsForPrefetching, through: resolver) }
        return models
    }

    /// Class models for fetched snapshots, as ``materialize(_:resolver:untracked:)`` makes them one by one, with
    /// what is the same for every model done once: the new instances are registered without looking for an
    /// earlier registration when the context tracks none of them (it tracks nothing, or the caller knows:
    /// `untracked`; a fetch names each identifier once), and tracked under one lock.
    private func materializeInstances<Model: PersistentModel>(
        _ snapshots: consuming [DataStoreSnapshot], resolver: ContextRelationshipResolver?,
        untracked: Bool = false
    ) throws -> [Model] {
        // Nothing to make. (And `Array(unsafeUninitializedCapacity: 0)` writes the count of the empty array that
        // every empty array shares, which ThreadSanitizer reports as a race between two fetches of nothing.)
        guard !snapshots.isEmpty else { return [] }
        let reportsChanges = ChangeReportingDiscovery.reportsChanges(Model.self)
        registry.reserveCapacity(adding: snapshots.count, compared: !reportsChanges)
        let tracksNothing = untracked || registry.isEmpty
        // Connected to the change log: instances that report their changes. (The relationships of the others
        // know the log through the resolver that loads them: `Relationship.contextLog`.)
        var connected: [AnyObject] = []
        if reportsChanges { connected.reserveCapacity(snapshots.count) }
        defer { registry.track(fetched: connected) }
        // Each model's `init()` identifier is replaced right away by the stored one (no random key drawn).
        return try PersistentIdentifier.$isReplacedRightAway.withValue(true) {
            let make = Model.snapshotMaker()
            // Each snapshot is moved out of the array, which is the fetch's own and goes away after this, and an
            // empty one is left in its place: a loop over the array would copy each snapshot (retaining its
            // strings and values) and release the copy. New models are made in the order their rows lie in
            // memory (`MemoryOrder`), each into its slot of a buffer, and moved into the result in the store's
            // order at the end: an append to an `Array` of a generic element type would look the array's type
            // up in the runtime each time. If making one throws, the models made so far are released.
            return try snapshots.withUnsafeMutableBufferPointer { snapshots in
                let count = snapshots.count
                let order = tracksNothing ? MemoryOrder.of(snapshots) : Array(0..<count)
                let slots = UnsafeMutablePointer<Model>.allocate(capacity: count)
                var filled = [Bool](repeating: false, count: count)
                defer {
                    for index in filled.indices where filled[index] { (slots + index).deinitialize(count: 1) }
                    slots.deallocate()
                }
                for index in order {
                    var snapshot = (snapshots.baseAddress! + index).move()
                    (snapshots.baseAddress! + index).initialize(to: .empty)
                    guard tracksNothing else {
                        (slots + index).initialize(to: try materialize(snapshot, resolver: resolver))
                        filled[index] = true
                        continue
                    }
                    resolver?.note(snapshot, of: Model.self)
                    let model = try make(snapshot, resolver)
                    // The values move into the registration: a copy would retain the dictionary, and the
                    // snapshot's end release it again.
                    var values: [String: SnapshotValue] = [:]
                    swap(&values, &snapshot.values)
                    registry.register(
                        fetched: snapshot.persistentIdentifier,
                        Registration(model: model, baseline: .saved(values)),
                        reportsChanges: reportsChanges)
                    // A class instance is its reference; the cast through `AnyObject` would look the type
                    // up each time.
                    if reportsChanges { connected.append(unsafeBitCast(model, to: AnyObject.self)) }
                    (slots + index).initialize(to: model)
                    filled[index] = true
                }
                let models = [Model](unsafeUninitializedCapacity: count) { models, made in
                    models.baseAddress?.moveInitialize(from: slots, count: count)
                    made = count
                }
                filled = []  // Moved into `models`.
                return models
            }
        }
    }

    /// The number of models that match the descriptor, after its offset and limit (unsaved changes included
    /// unless `includePendingChanges` is `false`).
    public func fetchCount<Model: PersistentModel>(_ descriptor: FetchDescriptor<Model>) throws -> Int {
        try fetchSnapshots(descriptor).count
    }

    /// The identifiers of the models that match the descriptor, without materializing saved models (unsaved
    /// changes included unless `includePendingChanges` is `false`).
    public func fetchIdentifiers<Model: PersistentModel>(_ descriptor: FetchDescriptor<Model>) throws
        -> [PersistentIdentifier]
    {
        try fetchSnapshots(descriptor).map(\.persistentIdentifier)
    }

    /// The model with the given identifier, as SwiftData's `model(for:)`: what ``existingModel(for:)`` answers
    /// (the tracked instance, refreshed from its store unless it has unsaved changes), otherwise a placeholder
    /// of the identifier's
    /// type whose attributes hold their defaults (a model that was deleted, or never existed), so that the
    /// seeds' `guard let item = context.model(for: id) as? Item else { continue }` reaches its delete branch.
    /// An identifier of an entity outside the container gives a `MissingModel`. Use
    /// ``existingModel(for:)`` to tell "not there" (`nil`) and store errors apart.
    public func model(for identifier: PersistentIdentifier) -> any PersistentModel {
        if let existing = try? existingModel(for: identifier) { return existing }
        guard let type = container.modelTypes.types[identifier.entityName] else {
            return MissingModel(persistentModelID: identifier)
        }
        return placeholder(type, identifier)
    }

    /// The model with the given identifier, or `nil` if there is none: the tracked instance when it has unsaved
    /// changes (or is a pending insert or delete); otherwise the model as its store holds it now (the tracked
    /// instance, refreshed, when the context has one), so a change or delete by another context or process
    /// shows.
    ///
    /// - Throws: The store's errors while fetching.
    public func existingModel(for identifier: PersistentIdentifier) throws -> (any PersistentModel)? {
        if let known = resolve(identifier), let registration = registry[known] {
            // Unsaved work answers from the context; a saved model without unsaved changes is read again, so
            // that another context's or process's change (or delete) shows, as a fetch would show it.
            guard case .saved = registration.baseline, !registration.isDeleted, !isUpdated(registration)
            else {
                return registration.model
            }
            guard let type = container.modelTypes.types[known.entityName] else { return registration.model }
            return try fetchModel(type, known, includePendingChanges: false)
        }
        guard let type = container.modelTypes.types[identifier.entityName] else { return nil }
        return try fetchModel(type, identifier)
    }

    private func placeholder<Model: PersistentModel>(_: Model.Type, _ identifier: PersistentIdentifier)
        -> Model
    {
        var model = Model()
        model.persistentModelID = identifier
        return model
    }

    /// Loads the models of `Model` with these identifiers that the context does not track yet, in one store
    /// fetch, and tracks them; their relationships load through `resolver`.
    func loadModels<Model: PersistentModel>(
        _: Model.Type, _ identifiers: Set<PersistentIdentifier>, resolver: ContextRelationshipResolver
    ) throws {
        var descriptor = FetchDescriptor<Model>(
            predicate: #Predicate { identifiers.contains($0.persistentModelID) })
        descriptor.includePendingChanges = false
        let snapshots = try fetchSnapshots(descriptor)
        guard Model.self is AnyObject.Type else {
            for snapshot in snapshots {
                _ = try materialize(snapshot, resolver: resolver, untracked: true) as Model
            }
            return
        }
        _ = try materializeInstances(snapshots, resolver: resolver, untracked: true) as [Model]
    }

    /// The tracked instance with the given identifier, without fetching.
    public func registeredModel<Model: PersistentModel>(for identifier: PersistentIdentifier) -> Model? {
        if let model = registry.model(identifier, as: Model.self) { return model }
        return resolve(identifier).flatMap { registry.model($0, as: Model.self) }
    }

    /// The tracked instances with these identifiers, or `nil` if the context does not track one of them.
    func trackedModels<Model: PersistentModel>(_ identifiers: [PersistentIdentifier], as _: Model.Type)
        -> [Model]?
    {
        var models: [Model] = []
        models.reserveCapacity(identifiers.count)
        for id in identifiers {
            guard let model = registry.model(id, as: Model.self) else { return nil }
            models.append(model)
        }
        return models
    }

    private func fetchModel<Model: PersistentModel>(
        _: Model.Type, _ identifier: PersistentIdentifier, includePendingChanges: Bool = true
    ) throws -> Model? {
        var descriptor = FetchDescriptor<Model>(
            predicate: #Predicate { $0.persistentModelID == identifier }, fetchLimit: 1)
        descriptor.includePendingChanges = includePendingChanges
        return try fetch(descriptor).first
    }

    func fetchSnapshots<Model: PersistentModel>(_ descriptor: FetchDescriptor<Model>) throws
        -> [DataStoreSnapshot]
    {
        let store = try container.connection(forEntity: Model.entityName)
        try OpaqueAttributeUse.check(descriptor, store: store.identifier)
        // Found once: each model whose properties cannot report their writes is compared with its baseline to
        // find them, and the questions below all need them.
        let updated = descriptor.includePendingChanges ? updatedIdentifiers : []
        let hasChanges =
            descriptor.includePendingChanges
            && !(insertOrder.isEmpty && deleteOrder.isEmpty && pendingBatchDeletes.isEmpty && updated.isEmpty
                && registry.log.droppedCount == 0)
        if hasChanges, container.modelTypes.haveRelationships {
            // A new model related to a tracked one since its insert or save is a pending insert, as in SwiftData.
            insertNewlyRelatedModels(updated: updated)
        }
        let pending = hasChanges ? pendingRegistrations(of: Model.entityName, updated: updated) : []
        // A predicate or sort that follows a relationship sees unsaved changes of related models only here.
        let relatedPending =
            hasChanges
            && Model.relatedModelTypes.contains {
                !pendingRegistrations(of: $0.entityName, updated: updated).isEmpty
            }
        let batchDeletes =
            descriptor.includePendingChanges
            ? pendingBatchDeletes.filter { $0.entityName == Model.entityName } : []
        guard !pending.isEmpty || relatedPending || !batchDeletes.isEmpty else {
            return try storeFetch(descriptor, from: store)
        }
        // The store's matches without offset and limit (pending changes can move both), its stale rows of
        // pending models replaced by their unsaved state, then the whole descriptor applied again in Swift.
        // When related models have unsaved changes, the store cannot evaluate the predicate: it returns all.
        var unlimited = FetchDescriptor<Model>(predicate: relatedPending ? nil : descriptor.predicate)
        unlimited.includePendingChanges = false
        let pendingIDs = Set(pending.map(\.0))
        var candidates = try storeFetch(unlimited, from: store, finish: false)
            .filter { !pendingIDs.contains($0.persistentIdentifier) }
        for (id, registration) in pending where !registration.isDeleted {
            candidates.append(DataStoreSnapshot(persistentIdentifier: id, values: registration.currentValues))
        }
        // Models a pending batch delete will remove are gone already, as seen from this context.
        for deletion in batchDeletes {
            let doomed = Set(
                try deletion.matches(self, candidates, store.identifier).map(\.persistentIdentifier))
            candidates.removeAll { doomed.contains($0.persistentIdentifier) }
        }
        return try SnapshotQuery.run(
            descriptor, over: candidates, storeIdentifier: store.identifier,
            resolver: makeResolver(for: Model.self))
    }

    /// The store's answer to `descriptor`, with what the store declines done in Swift, as SwiftData does: a
    /// store that throws `preferInMemoryFilter` is asked for every model of the type (without predicate, sort,
    /// offset or limit), one that throws `preferInMemorySort` for the matches unsorted and unlimited, and the
    /// whole descriptor is then applied here (unless `finish` is `false`: the caller applies it, or a
    /// superset of the matches is what it needs).
    func storeFetch<Model: PersistentModel>(
        _ descriptor: FetchDescriptor<Model>, from store: any StoreConnection, finish: Bool = true
    ) throws -> [DataStoreSnapshot] {
        var fallback = FetchDescriptor<Model>(predicate: descriptor.predicate)
        fallback.includePendingChanges = false
        do {
            return try store.fetch(DataStoreFetchRequest(descriptor: descriptor, editingState: editingState))
        } catch DataStoreError.preferInMemoryFilter {
            fallback.predicate = nil
        } catch DataStoreError.preferInMemorySort {
            // The predicate stays with the store; only the order (and so the window) moves here.
        }
        let candidates = try store.fetch(
            DataStoreFetchRequest(descriptor: fallback, editingState: editingState))
        guard finish else { return candidates }
        return try SnapshotQuery.run(
            descriptor, over: candidates, storeIdentifier: store.identifier,
            resolver: makeResolver(for: Model.self))
    }

    /// The context's models of `entity` with unsaved inserts, changes or deletes.
    func pendingRegistrations(of entity: String, updated: [PersistentIdentifier])
        -> [(PersistentIdentifier, Registration)]
    {
        (insertOrder + deleteOrder + updated).compactMap { id in
            guard id.entityName == entity, let registration = registry[id] else { return nil }
            return (id, registration)
        }
    }

    /// The model for a fetched snapshot, reusing the tracked class instance where there is one; its
    /// relationships load through `resolver`, which notes their identifiers for one batch load.
    /// `untracked` says the caller knows the context does not track it (skipping two lookups).
    func materialize<Model: PersistentModel>(
        _ snapshot: DataStoreSnapshot, resolver: ContextRelationshipResolver?, untracked: Bool = false
    ) throws -> Model {
        resolver?.note(snapshot, of: Model.self)
        let id = snapshot.persistentIdentifier
        if !untracked, let known = resolve(id), let registration = registry[known],
            var model = registration.model as? Model
        {
            if case .none = registration.baseline { return model }  // an unsaved insert
            if isUpdated(registration) || registration.isDeleted { return model }
            try registry.log.suspended { try model.apply(snapshot.values, resolver: resolver) }
            var refreshed = Registration(
                model: model, baseline: .saved(snapshot.values), twins: registration.twins)
            refreshed.markSaved(snapshot.values, resolver: resolver, log: registry.log)
            registry[known] = refreshed
            registry.log.forget([known])
            return model
        }
        let model = try Model(snapshot: snapshot, resolver: resolver)
        if Model.self is AnyObject.Type {
            // Class instances are tracked so that `save()` sees changes made to them.
            registry.register(materialized: id, Registration(model: model, baseline: .saved(snapshot.values)))
        }
        return model
    }
}

extension DataStoreSnapshot {
    /// What a snapshot moved out of a fetch's array leaves behind: empty strings and an empty dictionary, which
    /// hold no storage to retain or release.
    fileprivate static var empty: DataStoreSnapshot {
        DataStoreSnapshot(
            persistentIdentifier: PersistentIdentifier(storeIdentifier: nil, entityName: "", primaryKey: ""),
            values: [:])
    }
}
