import Foundation
import Synchronization

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one place the package runs work when the process exits normally (`exit`, or returning from `main`), in
/// a fixed order of phases: first the autosaving contexts save, then the stores commit what they hold in
/// memory (a time-series store's open commit window), so that what a context saves at exit reaches the disk.
///
/// Separate `atexit` handlers would run in the reverse order of their registration, which depends on which
/// module happened to register first. A crash or `kill -9` runs none of this.
package final class ExitCoordinator: Sendable {
    /// When a task runs, in order.
    package enum Phase: Int, Sendable, CaseIterable {
        /// Autosaving contexts save their pending changes.
        case saveContexts
        /// Stores commit what they still hold in memory.
        case flushStores
    }

    /// The process's coordinator.
    package static let shared = ExitCoordinator()

    private struct Tasks {
        var byPhase: [Phase: [@Sendable () -> Void]] = [:]
        var installed = false
    }

    private let tasks = Lock(Tasks())

    /// Runs `task` at exit in `phase`. Register once per kind of work (each call adds a task).
    package func register(_ phase: Phase, _ task: @escaping @Sendable () -> Void) {
        let install = tasks.withLock { tasks -> Bool in
            tasks.byPhase[phase, default: []].append(task)
            defer { tasks.installed = true }
            return !tasks.installed
        }
        if install { atexit { ExitCoordinator.shared.runAll() } }
    }

    /// Runs every task, phase by phase.
    package func runAll() {
        let byPhase = tasks.withLock { $0.byPhase }
        for phase in Phase.allCases {
            for task in byPhase[phase] ?? [] { task() }
        }
    }
}

/// Runs work that belongs to the main actor (the main context) from an exit handler, which may run on any
/// thread: on the main queue, and never on another thread while the main queue may be using the same context.
package enum MainQueueAtExit {
    private static let key = DispatchSpecificKey<Bool>()
    private static let marked = Lock(false)

    /// Marks the main queue, so that code can tell it runs there (in a program that calls `dispatchMain()`,
    /// a worker thread, not the main thread, drains it).
    package static func markMainQueue() {
        marked.withLock { marked in
            guard !marked else { return }
            DispatchQueue.main.setSpecific(key: key, value: true)
            marked = true
        }
    }

    /// Runs `work` on the main queue's behalf: at once when this is the main thread (the process is exiting
    /// from `main`, so nothing else runs the main queue) or the main queue; otherwise it is sent to the main
    /// queue and waited for up to `limit`. Returns whether it ran.
    @discardableResult
    package static func run(
        waitingAtMost limit: Duration = .seconds(2), _ work: @escaping @Sendable () -> Void
    )
        -> Bool
    {
        if Thread.isMainThread || DispatchQueue.getSpecific(key: key) == true {
            work()
            return true
        }
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.main.async {
            work()
            done.signal()
        }
        let nanoseconds =
            limit.components.seconds * 1_000_000_000 + limit.components.attoseconds / 1_000_000_000
        return done.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success
    }
}
