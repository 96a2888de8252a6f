@_spi(DataStoreInternals) import DataStoreCore
import Dispatch
import Synchronization

/// Whether a container is open, and the operations under way on it: what `ModelContainer.close()` waits for.
///
/// An operation (a save, one store call) runs inside ``use(_:)``. Closing first refuses new operations, then
/// waits for those under way to finish, then finishes the close: so a save another thread started before the
/// close commits whole, and one it starts after throws `DataStoreError.containerClosed(stores:)` having
/// written nothing. An operation nested in another on the same thread or task (the store calls of a save) is
/// part of it and never refused halfway.
final class ContainerLifecycle: Sendable {
    private struct State {
        var closing = false
        var closed = false
        var active = 0
        var waitedFor = 0
    }

    /// The containers whose operations the current task or thread is inside.
    @TaskLocal private static var holding: Set<ObjectIdentifier> = []

    private let state = Lock(State())
    /// Signalled when the last operation under way ends after closing began.
    private let drained = DispatchSemaphore(value: 0)
    /// The stores' identifiers, for the error.
    private let stores: [String]

    init(stores: [String]) { self.stores = stores }

    /// How many operations under way the close waited for: a counter for tests.
    var operationsCloseWaitedFor: Int { state.withLock { $0.waitedFor } }

    /// Whether the container is closed, or closing.
    var isClosed: Bool { state.withLock { $0.closing || $0.closed } }

    /// Runs `body` as an operation on the open container.
    ///
    /// - Throws: `DataStoreError.containerClosed(stores:)` when the container is closed or closing (then
    ///   `body` does not run), or what `body` throws.
    func use<T>(_ body: () throws -> T) throws -> T {
        let me = ObjectIdentifier(self)
        if Self.holding.contains(me) { return try body() }
        try state.withLock { state throws(DataStoreError) in
            guard !state.closing, !state.closed else { throw .containerClosed(stores: stores) }
            state.active += 1
        }
        defer { leave() }
        return try Self.$holding.withValue(Self.holding.union([me])) { try body() }
    }

    private func leave() {
        let wake = state.withLock { state in
            state.active -= 1
            return state.closing && state.active == 0
        }
        if wake { drained.signal() }
    }

    /// Refuses new operations, waits for those under way, runs `finish`, and marks the container closed.
    /// Returns `false` (running nothing) when the container was already closed or closing.
    func close(_ finish: () throws -> Void) throws -> Bool {
        let (first, wait) = state.withLock { state -> (Bool, Bool) in
            guard !state.closing, !state.closed else { return (false, false) }
            state.closing = true
            state.waitedFor = state.active
            return (true, state.active > 0)
        }
        guard first else { return false }
        if wait { drained.wait() }
        defer { state.withLock { $0.closed = true } }
        try finish()
        return true
    }
}
