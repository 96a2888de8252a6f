@_spi(DataStoreInternals) import DataStoreCore

/// What an observer sleeps on between looks: the signals of its container's stores (commits by any process),
/// of the container's own saves in this process, and optionally of one context's unsaved changes, merged
/// into one gate that a single task waits at.
///
/// The sources are subscribed when the gate is made, before the observer's first look, so every commit after
/// that look wakes it. Signals that arrive while the observer is busy merge into one look. A store that
/// cannot signal (one that does not conform to `HistoryObserving`) makes the gate also open after the
/// observer's polling interval; otherwise an idle observer sleeps until something happens.
final class ChangeSignalGate: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Lock(State())
    private let relays = Lock<[Task<Void, Never>]>([])
    /// Whether a store of the container cannot signal, so that waits must also end after an interval.
    let needsPolling: Bool

    /// A gate over `container`'s stores and saves, and `context`'s unsaved changes when given.
    init(observing container: ModelContainer, context: ModelContext? = nil) {
        var sources = [container.localSaves.subscribe()]
        var needsPolling = false
        for store in container.stores {
            if let signals = store.commitSignals() {
                sources.append(signals)
            } else {
                needsPolling = true
            }
        }
        if let context {
            sources.append(context.unsavedChanges.subscribe())
            sources.append(context.registry.log.edits.subscribe())
        }
        self.needsPolling = needsPolling
        let relays = sources.map { source in
            Task { [weak self] in
                for await _ in source { self?.open() }
            }
        }
        self.relays.withLock { $0 = relays }
    }

    deinit {
        // Ends the relays, which ends their sources: the stores release their watches and connections.
        for relay in relays.withLock({ $0 }) { relay.cancel() }
    }

    /// Lets the waiting task through, or the next one to wait.
    func open() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns once a signal arrived since the last wait, `limit` passed, or the task was cancelled.
    func wait(upTo limit: Duration?) async {
        let timer = limit.map { limit in
            Task { [weak self] in
                try? await Task.sleep(for: limit)
                if !Task.isCancelled { self?.open() }
            }
        }
        defer { timer?.cancel() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let passNow = state.withLock { state in
                    if state.pending {
                        state.pending = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if passNow { continuation.resume() }
            }
        } onCancel: {
            open()
        }
    }
}
