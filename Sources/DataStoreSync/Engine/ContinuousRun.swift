@_spi(DataStoreInternals) import DataStoreCore
import Dispatch
import Foundation

/// One background run of a ``SyncEngine``: a thread that syncs, then sleeps until either store signals a
/// commit (or, after a failure, until the retry delay passes or the server signals a commit), and the tasks
/// that relay the stores' signals.
///
/// Syncing blocks (file I/O, the server's round trips), so it runs on a thread of its own, never on the
/// cooperative pool; the relaying tasks only wait on the stores' asynchronous signals.
final class ContinuousRun: Sendable {
    /// Signalled for each store commit and by ``stop()``; a burst of signals is drained into one sync.
    let wake = DispatchSemaphore(value: 0)
    /// Signalled once when the thread ends.
    let finished = DispatchSemaphore(value: 0)
    private let state = Lock(State())

    private struct State {
        var stopped = false
        var relays: [Task<Void, Never>] = []
        /// Whether the server signalled a commit since the last sync began: it answers again.
        var serverSignalled = false
    }

    /// The longest wait before retrying after a failure, in seconds.
    static let longestRetryDelay = 30.0

    /// Whether ``stop()`` was called.
    var isStopped: Bool { state.withLock { $0.stopped } }

    /// Relays each element of `signals` as a wake-up, until the run stops. `fromServer` marks the server's
    /// signals, which also end the wait after a failed sync.
    func relay(_ signals: AsyncStream<Void>, fromServer: Bool) {
        let task = Task { [self] in
            for await _ in signals {
                if fromServer { state.withLock { $0.serverSignalled = true } }
                wake.signal()
            }
        }
        state.withLock { $0.relays.append(task) }
    }

    /// Starts the thread: `sync` now, then after every wake-up. A failure waits `0.1 s`, doubling with each
    /// failure in a row up to ``longestRetryDelay``, unless the server signals a commit first (it answers
    /// again). The device's own commits do not end that wait: an app that saves many times a second would
    /// otherwise have the engine try a server that is down at every save (and, each try doubling the delay,
    /// reach the longest wait within a second).
    func start(_ sync: @escaping @Sendable () -> Bool) {
        let thread = Thread { [self] in
            var delay = 0.0
            while !isStopped {
                state.withLock { $0.serverSignalled = false }
                delay = sync() ? 0 : min(max(delay * 2, 0.1), Self.longestRetryDelay)
                if isStopped { break }
                if delay > 0 {
                    waitAfterFailure(delay)
                } else {
                    wake.wait()
                }
                // Commits that arrived meanwhile are covered by the next sync.
                while wake.wait(timeout: .now()) == .success {}
            }
            finished.signal()
        }
        thread.name = "DataStoreSync"
        thread.start()
    }

    /// Waits `delay` seconds, or until the server signals a commit or the run stops.
    private func waitAfterFailure(_ delay: Double) {
        let deadline = DispatchTime.now() + delay
        while !isStopped, !state.withLock({ $0.serverSignalled }) {
            guard wake.wait(timeout: deadline) == .success else { return }
        }
    }

    /// Stops the run and waits for the thread to finish the sync under way.
    func stop() {
        let relays = state.withLock {
            $0.stopped = true
            return $0.relays
        }
        for relay in relays { relay.cancel() }
        wake.signal()
        finished.wait()
    }
}
