import Synchronization

/// Connects model instances to the change log of the context that tracks them, so that a property's setter
/// (which knows only its model) can tell that context.
///
/// Entries are keyed by the model's object identity and hold the log weakly: a context that is gone no longer
/// asks, and its entries are swept out as the table grows. They hold no reference to the model, not even a
/// weak one (a weak reference gives the object a side table, which makes every later retain and release of it
/// slower, and a fetch tracks every model it returns). While a model is tracked its context's registry holds it,
/// so it cannot be freed and its address reused; the registry untracks it before letting it go, and a model
/// whose context is gone finds a log that is gone. A note that reached the wrong log anyway would only make
/// that context compare a model with its saved values.
package enum ModelChangeTracking {
    private struct Entry: @unchecked Sendable {
        // `@unchecked`: the weak reference is only read under the table's lock.
        weak var log: ModelChangeLog?
    }

    private struct Table {
        var entries: [ObjectIdentifier: Entry] = [:]
        /// The size at which the next sweep runs.
        var sweepAt = 1_024

        /// Drops the entries whose context is gone, once the table has grown to twice what the last sweep left.
        mutating func sweepIfDue() {
            guard entries.count >= sweepAt else { return }
            entries = entries.filter { $0.value.log != nil }
            sweepAt = max(1_024, entries.count * 2)
        }
    }

    private static let table = Lock(Table())
    /// How many entries exist: setters of models nobody tracks skip the lock while it is zero.
    private static let count = Atomic<Int>(0)

    /// Sends the changes of `model` to `log` from now on (replacing another context's log: the last context
    /// to register an instance is the one it reports to).
    package static func track(_ model: AnyObject, in log: ModelChangeLog) {
        table.withLock { table in
            table.entries[ObjectIdentifier(model)] = Entry(log: log)
            table.sweepIfDue()
            count.store(table.entries.count, ordering: .relaxed)
        }
    }

    /// ``track(_:in:)`` for many models under one lock: how a fetch tracks the models it creates. An array,
    /// not any collection: the loop runs once per fetched model, and unspecialised it went through the
    /// iterator's protocol witness for each.
    package static func track(_ models: [AnyObject], in log: ModelChangeLog) {
        guard !models.isEmpty else { return }
        table.withLock { table in
            table.entries.reserveCapacity(table.entries.count + models.count)
            for model in models { table.entries[ObjectIdentifier(model)] = Entry(log: log) }
            table.sweepIfDue()
            count.store(table.entries.count, ordering: .relaxed)
        }
    }

    /// Stops sending the changes of `model` to `log`.
    package static func untrack(_ model: AnyObject, from log: ModelChangeLog) {
        table.withLock { table in
            let key = ObjectIdentifier(model)
            guard let entry = table.entries[key], entry.log === log else { return }
            table.entries[key] = nil
            count.store(table.entries.count, ordering: .relaxed)
        }
    }

    /// Called by the setters of `@Attribute` and `@Relationship`: notes the change in the log of the context
    /// that tracks `owner`, if any.
    static func noteChange<Owner: PersistentModel & AnyObject>(of owner: Owner) {
        guard count.load(ordering: .relaxed) > 0 else { return }
        let log = table.withLock { table -> ModelChangeLog? in
            table.entries[ObjectIdentifier(owner)]?.log
        }
        log?.note(owner.persistentModelID)
    }

    /// Called by the setters of `@Relationship` when `owner`'s relationship let go of `models`: notes in the
    /// log of the context that tracks `owner` those that are new models no context inserted
    /// (``ModelChangeLog/noteDropped(_:)``).
    static func noteDropped(_ models: [any PersistentModel], by owner: AnyObject) {
        guard count.load(ordering: .relaxed) > 0,
            models.contains(where: { !$0.persistentModelID.isResolved })
        else { return }
        let log = table.withLock { table -> ModelChangeLog? in
            table.entries[ObjectIdentifier(owner)]?.log
        }
        guard let log else { return }
        for model in models where !model.persistentModelID.isResolved { log.noteDropped(model as AnyObject) }
    }
}
