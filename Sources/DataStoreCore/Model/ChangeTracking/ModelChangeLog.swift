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
    }

    private let state = Lock(State())
    /// Signalled on every change noted: what observers of the context's unsaved changes (a results observer)
    /// wake on.
    package let edits = SignalBroadcaster()

    /// An empty log.
    package init() {}

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

    /// Runs `body` without noting changes: the context writing stored values into its models.
    package func suspended<T>(_ body: () throws -> T) rethrows -> T {
        state.withLock { $0.suspended += 1 }
        defer { state.withLock { $0.suspended -= 1 } }
        return try body()
    }
}
