import Synchronization

/// Hands a signal to every subscriber at once: the in-process half of pushed observation (a store's commits
/// in this process, a container's saves, a context's unsaved changes).
///
/// Each subscriber's stream holds at most one undelivered signal: signals that arrive while it is busy merge
/// into one, so a burst of commits costs a slow subscriber one wake, not one per commit. A signal means "look
/// again"; it carries nothing, and one too many only costs a look.
package final class SignalBroadcaster: Sendable {
    private let subscribers = Lock<[Int: AsyncStream<Void>.Continuation]>([:])
    private let nextIdentifier = Lock(0)
    /// The number of subscribers, read without the lock: a signal nobody listens to costs one atomic load
    /// (model property setters signal on every write).
    private let listening = Atomic<Int>(0)

    /// A broadcaster with no subscribers.
    package init() {}

    /// A stream that yields after every ``signal()`` from now on, until its consumer cancels or drops it.
    package func subscribe() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let identifier = nextIdentifier.withLock { next in
            defer { next += 1 }
            return next
        }
        subscribers.withLock { $0[identifier] = continuation }
        listening.add(1, ordering: .relaxed)
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            if subscribers.withLock({ $0.removeValue(forKey: identifier) }) != nil {
                listening.subtract(1, ordering: .relaxed)
            }
        }
        return stream
    }

    /// Wakes every subscriber.
    package func signal() {
        guard listening.load(ordering: .relaxed) > 0 else { return }
        let continuations = subscribers.withLock { Array($0.values) }
        for continuation in continuations { continuation.yield() }
    }

    /// How many streams are subscribed, to check that cancelling releases them.
    package var subscriberCount: Int { subscribers.withLock { $0.count } }
}
