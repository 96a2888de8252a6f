import Synchronization

/// Connects model instances to the change log of the context that tracks them, so that a property's setter
/// (which knows only its model) can tell that context.
///
/// Entries are keyed by the model's object identity and hold the number of the log, and whether the instance
/// reports its attribute changes; the logs are held weakly, once each, by number: a context that is gone no
/// longer asks, and its entries are swept out as the table grows. (A weak reference per entry cost a fetch of
/// ten thousand models a tenth of its time.) Entries hold no reference to the model, not even a weak one (a weak
/// reference gives the object a side table, which makes every later retain and release of it slower, and a
/// fetch tracks every model it returns). While a model is tracked its context's registry holds it, so it cannot
/// be freed and its address reused; the registry untracks it before letting it go, and a model whose context is
/// gone finds a log that is gone. A note that reached the wrong log anyway would only make that context compare
/// a model with its saved values.
package enum ModelChangeTracking {
    private struct Entry {
        /// The log's ``ModelChangeLog/trackingNumber``.
        var log: Int
        /// Whether the instance's attributes report their changes; an instance that does not is compared with
        /// its saved values at every save, and is connected only for what its relationships let go of.
        var reports: Bool
    }

    private struct LogReference: @unchecked Sendable {
        // `@unchecked`: the weak reference is only read under the table's lock.
        weak var log: ModelChangeLog?
    }

    private struct Table {
        var entries: [ObjectIdentifier: Entry] = [:]
        var logs: [Int: LogReference] = [:]
        /// The size at which the next sweep runs.
        var sweepAt = 1_024

        /// Drops the entries whose context is gone, once the table would grow, with `incoming` new entries, to
        /// twice what the last sweep left. Called before the new entries go in: the sweep then rebuilds the
        /// table from the entries that were there only (a fetch of thousands after a context of thousands went
        /// away rebuilt it from all of them, and grew it first to hold both).
        mutating func sweepIfDue(adding incoming: Int) {
            guard entries.count + incoming >= sweepAt else { return }
            let logs = self.logs
            entries = entries.filter { logs[$0.value.log] != nil }
            sweepAt = max(1_024, (entries.count + incoming) * 2)
            ModelChangeTracking.sweeps.add(1, ordering: .relaxed)
        }

        /// The live log of the entry for `owner`, and whether the instance reports its attribute changes.
        func entry(of owner: AnyObject) -> (log: ModelChangeLog, reports: Bool)? {
            guard let entry = entries[ObjectIdentifier(owner)], let log = logs[entry.log]?.log else {
                return nil
            }
            return (log, entry.reports)
        }
    }

    private static let table = Lock(Table())
    /// How many entries exist: setters of models nobody tracks skip the lock while it is zero.
    private static let count = Atomic<Int>(0)
    private static let lastLogNumber = Atomic<Int>(0)
    /// How many sweeps ran, for tests.
    static let sweeps = Atomic<Int>(0)

    /// A number for a new log, by which entries name it.
    static func newLogNumber() -> Int {
        lastLogNumber.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// Makes `log` known by its number, until ``forget(log:)``.
    static func register(_ log: ModelChangeLog) {
        table.withLock { $0.logs[log.trackingNumber] = LogReference(log: log) }
    }

    /// Forgets the log numbered `number`: it is going away, and its entries lead nowhere from now on.
    static func forget(log number: Int) {
        table.withLock { _ = $0.logs.removeValue(forKey: number) }
    }

    /// Sends the changes of `model` to `log` from now on (replacing another context's log: the last context
    /// to register an instance is the one it reports to). `reports` says whether its attributes report their
    /// changes: the relationships of an instance that does not report only what they let go of.
    package static func track(_ model: AnyObject, in log: ModelChangeLog, reports: Bool = true) {
        table.withLock { table in
            table.sweepIfDue(adding: 1)
            table.entries[ObjectIdentifier(model)] = Entry(log: log.trackingNumber, reports: reports)
            count.store(table.entries.count, ordering: .relaxed)
        }
    }

    /// ``track(_:in:reports:)`` for many models under one lock: how a fetch tracks the models it creates. An
    /// array, not any collection: the loop runs once per fetched model, and unspecialised it went through the
    /// iterator's protocol witness for each.
    package static func track(_ models: [AnyObject], in log: ModelChangeLog, reports: Bool = true) {
        guard !models.isEmpty else { return }
        let entry = Entry(log: log.trackingNumber, reports: reports)
        table.withLock { table in
            table.sweepIfDue(adding: models.count)
            table.entries.reserveRoom(table.entries.count + models.count)
            for model in models { table.entries[ObjectIdentifier(model)] = entry }
            count.store(table.entries.count, ordering: .relaxed)
        }
    }

    /// Stops sending the changes of `model` to `log`.
    package static func untrack(_ model: AnyObject, from log: ModelChangeLog) {
        table.withLock { table in
            let key = ObjectIdentifier(model)
            guard let entry = table.entries[key], entry.log == log.trackingNumber else { return }
            table.entries[key] = nil
            count.store(table.entries.count, ordering: .relaxed)
        }
    }

    /// Called by the setters of `@Attribute` and `@Relationship`: notes the change in the log of the context
    /// that tracks `owner`, if any, when `owner` reports its changes.
    static func noteChange<Owner: PersistentModel & AnyObject>(of owner: Owner) {
        guard count.load(ordering: .relaxed) > 0 else { return }
        guard let entry = table.withLock({ $0.entry(of: owner) }), entry.reports else { return }
        entry.log.note(owner.persistentModelID)
    }

    /// Called by the setters of `@Relationship` when `owner`'s relationship let go of `models`: notes in the
    /// log of the context that tracks `owner` those that are new models no context inserted
    /// (``ModelChangeLog/noteDropped(_:)``). A fetched model whose attributes do not report their changes is
    /// not connected (see `Relationship.contextLog`): its relationship names the log of the context that
    /// loaded it, `contextLog`, read only when some model let go of is new.
    static func noteDropped(
        _ models: [any PersistentModel], by owner: AnyObject, contextLog: @autoclosure () -> Int
    ) {
        guard models.contains(where: { !$0.persistentModelID.isResolved }) else { return }
        let number = contextLog()
        let log = table.withLock { table in
            table.entry(of: owner)?.log ?? (number == 0 ? nil : table.logs[number]?.log)
        }
        guard let log else { return }
        for model in models where !model.persistentModelID.isResolved { log.noteDropped(model as AnyObject) }
    }
}
