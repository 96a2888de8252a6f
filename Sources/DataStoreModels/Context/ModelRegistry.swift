import DataStoreCore

/// The models a context tracks, by identifier, and which of them may hold unsaved changes.
///
/// A context may track tens of thousands of fetched models and change one. So that `save()` and `hasChanges`
/// look only at the models that may have changed, the registry keeps:
/// - the instances of types whose properties report their changes (`Attribute`, `Relationship`), and the
///   inserted instances of types with relationships (whose setters report the new models they let go of),
///   connected to the context's ``ModelChangeLog``, which their setters write to (a fetched model's
///   relationships know the log through the resolver that loads them: `Relationship.contextLog`);
/// - the set of registrations it must compare with their baseline whatever the log says: models of types with
///   plain stored properties, and models whose stored values the context has not seen (struct values given to
///   `insert` again).
struct ModelRegistry {
    private(set) var entries: [PersistentIdentifier: ModelContext.Registration] = [:]
    private var alwaysCompared: Set<PersistentIdentifier> = []
    /// Where the tracked instances' setters note their changes.
    let log: ModelChangeLog

    /// An empty registry noting changes in `log`.
    init(log: ModelChangeLog) {
        self.log = log
    }

    subscript(id: PersistentIdentifier) -> ModelContext.Registration? {
        get { entries[id] }
        set { _ = replace(id, with: newValue) }
    }

    /// Whether `id` is registered, without copying its registration out.
    func contains(_ id: PersistentIdentifier) -> Bool { entries.index(forKey: id) != nil }

    /// The model registered under `id` when it is a `Model`, without a dynamic cast of the existential (its
    /// type is compared once it is opened): a relationship read asks for one on every read.
    func model<Model: PersistentModel>(_ id: PersistentIdentifier, as _: Model.Type) -> Model? {
        guard let index = entries.index(forKey: id) else { return nil }
        func open<Registered: PersistentModel>(_ model: Registered) -> Model? {
            // Almost always the registered type is the requested one; a subclass instance is cast as before.
            Registered.self == Model.self ? unsafeBitCast(model, to: Model.self) : model as? Model
        }
        let model = entries.values[index].model
        return open(model)
    }

    /// The class instance registered under `id` when it is a `Model`, as ``model(_:as:)`` answers, read where the
    /// registration lies instead of copying it out (its baseline, its twins and the existential): mutating only
    /// to reach the entry in place, it changes nothing.
    mutating func registeredInstance<Model: PersistentModel>(
        _ id: PersistentIdentifier, as _: Model.Type
    ) -> Model? {
        guard let index = entries.index(forKey: id) else { return nil }
        return Self.instance(in: &entries.values[index], as: Model.self)
    }

    private static func instance<Model: PersistentModel>(
        in registration: inout ModelContext.Registration, as _: Model.Type
    ) -> Model? {
        func open<Registered: PersistentModel>(_ model: Registered) -> Model? {
            Registered.self == Model.self ? unsafeBitCast(model, to: Model.self) : model as? Model
        }
        return open(registration.model)
    }

    /// Calls `body` with the instances (primary and twins) of every registration (saved, inserted or marked for
    /// deletion), and whether the model is a pending insert (never saved), without copying the registrations
    /// out. Mutating only to reach them in place; it changes nothing.
    mutating func forEachInstance(_ body: (any PersistentModel, _ isUnsavedInsert: Bool) -> Void) {
        // Index by index: `values.indices` would hold the table while its entries are reached in place, so
        // that the first one reached would copy the whole table.
        var index = entries.startIndex
        while index != entries.endIndex {
            Self.visit(&entries.values[index], body)
            entries.formIndex(after: &index)
        }
    }

    private static func visit(
        _ registration: inout ModelContext.Registration, _ body: (any PersistentModel, Bool) -> Void
    ) {
        let isUnsavedInsert = registration.isUnsavedInsert
        body(registration.model, isUnsavedInsert)
        for twin in registration.twins { body(twin, isUnsavedInsert) }
    }

    /// Sets or removes the registration of `id` and returns the one it replaces, hashing `id` once for the
    /// table (a save re-registers every model it inserted, a fetch every model it made).
    private mutating func replace(
        _ id: PersistentIdentifier, with newValue: ModelContext.Registration?, connectingFetched: Bool = false
    ) -> ModelContext.Registration? {
        let old: ModelContext.Registration?
        if let newValue {
            old = entries.updateValue(newValue, forKey: id)
        } else {
            old = entries.removeValue(forKey: id)
        }
        connect(old: old, new: newValue, fetched: connectingFetched)
        if let newValue, newValue.needsComparing {
            alwaysCompared.insert(id)
        } else if !alwaysCompared.isEmpty {
            alwaysCompared.remove(id)
        }
        if newValue == nil { log.forget(id) }
        return old
    }

    /// Makes room for `count` more registrations at once (a fetch of many models), so that the table does not
    /// grow, and hash every identifier again, step by step. `compared` says the models are always compared
    /// (their type does not report its changes), so that set grows by `count` too.
    mutating func reserveCapacity(adding count: Int, compared: Bool = false) {
        entries.reserveRoom(entries.count + count)
        if compared { alwaysCompared.reserveCapacity(alwaysCompared.count + count) }
    }

    /// Registers a model a fetch created (or a save's deferred insert, once saved), under an identifier the
    /// registry does not hold. The caller says whether its type reports its changes, and tracks the reporting
    /// instances itself, all under one lock (``track(fetched:reports:)``): the cost of a fetch of many models is mostly
    /// the cost of registering them.
    mutating func register(
        fetched id: PersistentIdentifier, _ registration: consuming ModelContext.Registration,
        reportsChanges: Bool
    ) {
        assert(entries[id] == nil, "\(id) is registered already")
        // Consumed: the registration moves into the table (a fetch registers thousands).
        entries[id] = registration
        if !reportsChanges { alwaysCompared.insert(id) }
    }

    /// Records the saved insert of a class model that kept its identifier: its baseline becomes `values`, and
    /// the log forgets it. What removing and registering it again does, without disconnecting its instance from
    /// the log and connecting it again (two locked updates of the process-wide tracking table per model, in a
    /// save of thousands of inserts). Returns `false`, changing nothing, when `id` is not registered or its
    /// model is a struct.
    mutating func markInsertSaved(_ id: PersistentIdentifier, values: [String: SnapshotValue]) -> Bool {
        guard let index = entries.index(forKey: id), type(of: entries.values[index].model) is AnyObject.Type
        else { return false }
        entries.values[index].baseline = .saved(values)
        if entries.values[index].needsComparing {
            alwaysCompared.insert(id)
        } else if !alwaysCompared.isEmpty {
            alwaysCompared.remove(id)
        }
        log.forget(id)
        return true
    }

    /// Connects the instances of models registered with ``register(fetched:_:reportsChanges:)`` to the log;
    /// `reports` says whether their attributes report their changes. A fetch connects only those that do: a
    /// fetched model's relationships know the log through the resolver that loads them (see
    /// `Relationship.contextLog`); a save's inserts connect both.
    func track(fetched instances: [AnyObject], reports: Bool = true) {
        ModelChangeTracking.track(instances, in: log, reports: reports)
    }

    /// Registers a model made from a fetched snapshot, replacing any registration of `id`: what the subscript's
    /// setter does, except that the instance is connected to the log only when its attributes report their
    /// changes (see ``track(fetched:reports:)``).
    mutating func register(materialized id: PersistentIdentifier, _ registration: ModelContext.Registration) {
        _ = replace(id, with: registration, connectingFetched: true)
    }

    /// Removes and returns the registration of `id`.
    mutating func removeValue(forKey id: PersistentIdentifier) -> ModelContext.Registration? {
        replace(id, with: nil)
    }

    /// Whether the context tracks no model at all.
    var isEmpty: Bool { entries.isEmpty }

    /// The number of registrations.
    var count: Int { entries.count }

    /// Removes every registration at once: what removing each would do, for a registry that holds only struct
    /// models (no instance is connected to the log).
    mutating func removeAllStructModels() {
        assert(entries.values.allSatisfy { !(type(of: $0.model) is AnyObject.Type) })
        log.forget(entries.keys)
        entries.removeAll()
        alwaysCompared.removeAll()
    }

    /// Whether some tracked model cannot report its changes (plain stored properties), so that only comparing
    /// finds its edits.
    var hasModelsToCompare: Bool { !alwaysCompared.isEmpty }

    /// The registrations that may hold unsaved changes: those always compared and those the log names. Each
    /// still needs comparing with its baseline (a property set back to its saved value is no change).
    var mayHaveChanged: [PersistentIdentifier] {
        var result = Array(alwaysCompared)
        for id in log.changed where entries[id] != nil && !alwaysCompared.contains(id) { result.append(id) }
        return result
    }

    /// Connects the instances `new` holds to the log and disconnects those only `old` held. `fetched` says
    /// `new` was made from a fetched snapshot: connected only if its attributes report their changes.
    private func connect(old: ModelContext.Registration?, new: ModelContext.Registration?, fetched: Bool) {
        // The common update of a registration (its baseline, its deleted flag) keeps its instances.
        if let old, let new, old.twins.isEmpty, new.twins.isEmpty, old.holdsTheSameInstance(as: new) {
            return
        }
        // The common new registration (a fetched or inserted model, no twins): one instance to track.
        if old == nil, let new, new.twins.isEmpty {
            if let connection = new.connection, connection.reports || !fetched {
                ModelChangeTracking.track(connection.instance, in: log, reports: connection.reports)
            }
            return
        }
        // The common removal (a saved insert re-registered, a delete): one instance to untrack.
        if let old, new == nil, old.twins.isEmpty {
            if let connection = old.connection { ModelChangeTracking.untrack(connection.instance, from: log) }
            return
        }
        let before = old?.instances ?? []
        let after = new?.instances ?? []
        for (instance, _) in before where !after.contains(where: { $0.instance === instance }) {
            ModelChangeTracking.untrack(instance, from: log)
        }
        for (instance, reports) in after where !before.contains(where: { $0.instance === instance }) {
            ModelChangeTracking.track(instance, in: log, reports: reports)
        }
    }
}

extension ModelContext.Registration {
    /// The class instances of this registration that its context connects to its change log, each with
    /// whether its attributes report their changes.
    var instances: [(instance: AnyObject, reports: Bool)] {
        ([model] + twins).compactMap(Self.connection)
    }

    /// Whether a save must compare this registration whatever the change log says: its stored values are
    /// unknown, or one of its instances cannot report a change. A pending insert or delete is never an update.
    var needsComparing: Bool {
        guard !isDeleted else { return false }
        switch baseline {
        case .none: return false
        case .unknown: return true
        case .saved:
            guard twins.isEmpty else { return !([model] + twins).allSatisfy(Self.reportsChanges) }
            return !Self.reportsChanges(model)
        }
    }

    /// Whether the model is a pending insert: never saved, so nothing stored backs its relationships.
    var isUnsavedInsert: Bool {
        if case .none = baseline { return true }
        return false
    }

    /// The primary model's reference when it is a class instance.
    var instance: AnyObject? { Self.instance(model) }

    /// The primary instance, when its context connects it to its change log (its properties report their
    /// changes, or its relationships report the new models they let go of: ``ModelChangeLog/noteDropped(_:)``),
    /// with whether its properties report their changes; `nil` for a model that is not connected, which does
    /// not report them.
    var connection: (instance: AnyObject, reports: Bool)? { Self.connection(model) }

    /// Whether both registrations hold the same class instance (never true for struct models).
    func holdsTheSameInstance(as other: Self) -> Bool {
        guard let instance = Self.instance(model) else { return false }
        return instance === Self.instance(other.model)
    }

    /// `model` itself, with whether its properties report their changes, when it is a class instance whose
    /// properties report their changes or whose type has relationships.
    private static func connection(_ model: any PersistentModel) -> (instance: AnyObject, reports: Bool)? {
        func open<Model: PersistentModel>(_ model: Model) -> (instance: AnyObject, reports: Bool)? {
            // Only a class reports its changes (its wrappers reach the enclosing instance), and a class instance
            // is its reference: `as AnyObject` on the existential would go through the bridging machinery.
            let reports = ChangeReportingDiscovery.reportsChanges(Model.self)
            guard reports || ModelTypeFacts.hasRelationships(Model.self) else { return nil }
            return (unsafeBitCast(model, to: AnyObject.self), reports)
        }
        return open(model)
    }

    /// `model`'s reference when it is a class instance, without the bridging of `as AnyObject`.
    private static func instance(_ model: any PersistentModel) -> AnyObject? {
        func open<Model: PersistentModel>(_ model: Model) -> AnyObject? {
            Model.self is AnyObject.Type ? unsafeBitCast(model, to: AnyObject.self) : nil
        }
        return open(model)
    }

    private static func reportsChanges(_ model: any PersistentModel) -> Bool {
        func open<Model: PersistentModel>(_: Model) -> Bool {
            ChangeReportingDiscovery.reportsChanges(Model.self)
        }
        return open(model)
    }
}
