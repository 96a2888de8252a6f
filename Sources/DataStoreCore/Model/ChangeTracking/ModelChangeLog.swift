import Synchronization

/// The identifiers of the models whose `@Attribute` or `@Relationship` properties changed since a context last
/// looked: what `save()` and `hasChanges` compare, instead of every model the context tracks.
///
/// The properties' setters write to it from whatever thread changes the model, so it locks; the context
/// suspends it while it writes stored values into its own models (a refresh is not a change).
package final class ModelChangeLog: Sendable {
    private struct State {
        var changed: Set<PersistentIdentifier> = []
        var suspended = 0
        /// New models a tracked model's relationship let go of, each once (see ``noteDropped(_:)``).
        var dropped: [ObjectIdentifier: DroppedModel] = [:]
    }

    /// A model held for the context that owns the log; `@unchecked`: it is only handed back to that context,
    /// which uses its models on its own thread.
    private struct DroppedModel: @unchecked Sendable {
        let model: AnyObject
    }

    private let state = Lock(State())
    /// Signalled on every change noted: what observers of the context's unsaved changes (a results observer)
    /// wake on.
    package let edits = SignalBroadcaster()

    /// The number by which ``ModelChangeTracking`` knows the log.
    package let trackingNumber: Int

    /// An empty log.
    package init() {
        trackingNumber = ModelChangeTracking.newLogNumber()
        ModelChangeTracking.register(self)
    }

    deinit { ModelChangeTracking.forget(log: trackingNumber) }

    /// Records that the model with `identifier` changed, unless the log is suspended.
    package func note(_ identifier: PersistentIdentifier) {
        let noted = state.withLock { state in
            guard state.suspended == 0 else { return false }
            state.changed.insert(identifier)
            return true
        }
        if noted { edits.signal() }
    }

    /// The identifiers noted since they were last forgotten.
    package var changed: Set<PersistentIdentifier> {
        state.withLock { $0.changed }
    }

    /// Forgets `identifiers`: their models are as saved again, or no longer tracked.
    package func forget(_ identifiers: some Sequence<PersistentIdentifier>) {
        state.withLock { state in
            // Usually nothing was noted: nothing to look up.
            guard !state.changed.isEmpty else { return }
            for id in identifiers { state.changed.remove(id) }
        }
    }

    /// Forgets one identifier (``forget(_:)-(some Sequence<PersistentIdentifier>)`` without a collection to make).
    package func forget(_ identifier: PersistentIdentifier) {
        state.withLock { state in
            if !state.changed.isEmpty { state.changed.remove(identifier) }
        }
    }

    /// Records that a relationship of a tracked model let go of `model`, a new model no context has inserted:
    /// SwiftData inserts a model when it is related, so the next save inserts it although nothing relates to it
    /// any more. Not while the log is suspended (the context writing stored values).
    package func noteDropped(_ model: AnyObject) {
        state.withLock { state in
            guard state.suspended == 0 else { return }
            state.dropped[ObjectIdentifier(model)] = DroppedModel(model: model)
        }
    }

    /// Forgets `model` as dropped: the context deleted it before it was ever saved.
    package func forgetDropped(_ model: AnyObject) {
        state.withLock { state in
            if !state.dropped.isEmpty { state.dropped[ObjectIdentifier(model)] = nil }
        }
    }

    /// How many models are noted as dropped and not taken yet: pending inserts of the context.
    package var droppedCount: Int { state.withLock { $0.dropped.count } }

    /// The models noted as dropped since the last call, which it forgets.
    package func takeDropped() -> [AnyObject] {
        let taken = state.withLock { state -> [DroppedModel] in
            guard !state.dropped.isEmpty else { return [] }
            defer { state.dropped = [:] }
            return Array(state.dropped.values)
        }
        return taken.map(\.model)
    }

    /// Runs `body` without noting changes: the context writing stored values into its models.
    package func suspended<T>(_ body: () throws -> T) rethrows -> T {
        state.withLock { $0.suspended += 1 }
        defer { state.withLock { $0.suspended -= 1 } }
        return try body()
    }
}
