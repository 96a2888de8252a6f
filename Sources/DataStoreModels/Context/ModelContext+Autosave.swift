@_spi(DataStoreInternals) import DataStoreCore
import Foundation
import Synchronization

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension ModelContext {
    /// How long after a change an autosaving context saves: changes made together are saved together.
    public static let autosaveDelay: Duration = .milliseconds(100)

    /// Runs `block` and saves what it changed as one save (one transaction per store touched); if `block`
    /// throws, rolls back every unsaved change and rethrows. As SwiftData's `ModelContext.transaction(block:)`.
    public func transaction(block: () throws -> Void) throws {
        do {
            try block()
            try save()
        } catch {
            rollback()
            throw error
        }
    }

    /// How often an autosaving context checks for edits it cannot see happen: changes to tracked models whose
    /// properties are plain stored properties (there is no observation without macros). The check runs only
    /// while the context tracks such a model. Inserts, deletes and edits of models whose properties report
    /// their changes (`@Attribute`, `@Relationship`) schedule a save at once.
    public static let autosaveCheckInterval: Duration = .seconds(1)

    /// Whether the periodic check for unsaved edits is running, for tests.
    package var hasAutosaveTimer: Bool { autosaveTimer != nil }

    /// Schedules an autosave, on the main queue, after each edit that a model reports, for as long as the
    /// context lives: no timer needed for them.
    func startAutosaveOnEdits() {
        guard autosaveEditRelay == nil else { return }
        let edits = registry.log.edits.subscribe()
        // The main context is used on the main actor only, and the main queue is the main actor's executor.
        nonisolated(unsafe) weak let context = self
        autosaveEditRelay = Task {
            for await _ in edits {
                DispatchQueue.main.async { context?.changed() }
            }
        }
    }

    /// Starts the periodic check for unsaved edits of models that cannot report them, on the main queue, while
    /// the context tracks such a model; it stops itself when the context no longer does.
    func startAutosaveTimer() {
        guard autosaveTimer == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: .main)
        let interval = Self.autosaveCheckInterval.components
        let nanoseconds = Int(interval.seconds) * 1_000_000_000 + Int(interval.attoseconds / 1_000_000_000)
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
        // The main context is used on the main actor only, and the main queue is the main actor's executor.
        nonisolated(unsafe) weak let context = self
        timer.setEventHandler {
            guard let context else { return }
            guard context.registry.hasModelsToCompare else {
                // Nothing left that only comparing finds: stop until such a model is tracked again.
                context.autosaveTimer?.cancel()
                context.autosaveTimer = nil
                return
            }
            guard context.autosaveEnabled, !context.autosaveScheduled, context.hasChanges else { return }
            context.autosave()
        }
        timer.resume()
        autosaveTimer = timer
    }

    /// Called after an insert or delete: observers of the context's results look again, and an autosaving
    /// context saves about ``autosaveDelay`` later, on the main queue (autosave is for
    /// ``ModelContainer/mainContext``, which lives on the main actor), and again when the process exits
    /// normally.
    package func changed() {
        unsavedChanges.signal()
        guard autosaveEnabled, !autosaveScheduled else { return }
        autosaveScheduled = true
        // The main context is used on the main actor only, and the main queue is the main actor's executor.
        nonisolated(unsafe) let context = self
        let delay = Self.autosaveDelay.components
        let nanoseconds = Int(delay.seconds) * 1_000_000_000 + Int(delay.attoseconds / 1_000_000_000)
        DispatchQueue.main.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
            context.autosave()
        }
    }

    /// Saves pending changes, reporting a failure to ``autosaveErrorHandler``.
    func autosave() {
        autosaveScheduled = false
        guard autosaveEnabled, hasChanges else { return }
        do {
            try save()
        } catch {
            autosaveErrorHandler(error)
        }
    }
}

/// The contexts with autosave enabled, saved once more when the process exits normally (`exit` or the end of
/// `main`), in ``ExitCoordinator``'s first phase, before stores commit what they hold in memory. A crash or
/// `kill -9` skips this, as it skips SwiftData's: save explicitly what must survive those.
///
/// The contexts belong to the main actor, and the exit handler may run on any thread: the save runs on the main
/// queue (at once when the process exits from the main thread or the main queue; otherwise the exiting thread
/// waits up to two seconds for the main queue to run it, and if the main queue is blocked the save is skipped
/// with a message on standard error). It never touches a context from another thread.
final class AutosavingContexts: @unchecked Sendable {
    // `@unchecked`: the contexts are main-actor contexts; the lock guards only the list.
    static let shared = AutosavingContexts()
    private let state = Lock(Registered())

    private struct Registered: @unchecked Sendable {
        // `@unchecked`: weak references to main-actor contexts, only compared and handed to the main queue.
        var contexts: [WeakContext] = []
        var installed = false
    }

    struct WeakContext {
        weak var context: ModelContext?
    }

    func register(_ context: ModelContext) {
        nonisolated(unsafe) let context = context
        let install = state.withLock { state in
            state.contexts.removeAll { $0.context == nil || $0.context === context }
            state.contexts.append(WeakContext(context: context))
            defer { state.installed = true }
            return !state.installed
        }
        guard install else { return }
        MainQueueAtExit.markMainQueue()
        ExitCoordinator.shared.register(.saveContexts) { AutosavingContexts.shared.saveAllAtExit() }
    }

    /// Saves every autosaving context on the main queue's behalf.
    func saveAllAtExit() {
        let ran = MainQueueAtExit.run { AutosavingContexts.shared.saveAll() }
        if !ran {
            FileHandle.standardError.write(
                Data(
                    ("DataStoreHistory: the autosave at exit was skipped: the process exited from a thread other "
                        + "than the main one while the main queue was busy. Save before exiting.\n").utf8))
        }
    }

    /// Saves every autosaving context; call on the main queue.
    func saveAll() {
        for context in registered() { context.autosave() }
    }

    /// Saves every autosaving context of `container`; call on the main queue.
    func saveAll(of container: ModelContainer) {
        for context in registered() where context.container === container { context.autosave() }
    }

    /// Whether any autosaving context of `container` is registered (any thread may ask).
    func hasContexts(of container: ModelContainer) -> Bool {
        state.withLock { $0.contexts.contains { $0.context?.container === container } }
    }

    private func registered() -> [ModelContext] {
        nonisolated(unsafe) let contexts = state.withLock { $0.contexts }
        return contexts.compactMap(\.context)
    }
}
