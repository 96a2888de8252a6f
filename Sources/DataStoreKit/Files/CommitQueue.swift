@_spi(DataStoreInternals) public import DataStoreCore
public import Dispatch
import Foundation
import Synchronization

/// Group commit: saves that arrive while another is being written wait, and are then written together by
/// one of them, with one append and one `fdatasync`, each acknowledged only after that.
///
/// The first caller becomes the *leader*: it takes every waiting request (its own first), commits them as
/// one batch, hands each caller its result, and passes the lead to the next waiting caller, if any. A
/// caller is never acknowledged before the batch holding its request has been committed (or has failed).
///
/// Public behind an SPI, for the reason `Lock` is: the store in another module then gets `submit` specialised for
/// its request and outcome.
@_spi(DataStoreInternals) public final class CommitQueue<Request: Sendable, Outcome: Sendable>: Sendable {
    /// One caller's request, and the result the leader hands back.
    public final class Pending: @unchecked Sendable {
        // `@unchecked`: `result` is written by the leader before it signals `ready`, and read by the caller
        // only after waiting on it (the semaphore orders the two).
        /// What the caller submitted.
        public let request: Request
        /// What committing it came to, set by the leader before it wakes the caller.
        public var result: Result<Outcome, any Error>?
        @usableFromInline let ready = DispatchSemaphore(value: 0)

        /// A request not yet committed.
        public init(_ request: Request) { self.request = request }
    }

    @usableFromInline struct Queue: @unchecked Sendable {
        // `@unchecked`: only touched under the mutex.
        @usableFromInline var waiting: [Pending] = []
        @usableFromInline var leading = false
        /// How many saves the last batch held: the callers of a batch usually come back together.
        @usableFromInline var lastBatchSize = 1

        @usableFromInline init() {}
    }

    /// The longest a leader waits for the callers of the previous batch to come back before writing: a
    /// fraction of an `fdatasync`, paid only while several callers are saving at once.
    private static var gatheringLimit: Duration { .microseconds(150) }

    // Usable from inline code, like `submit`: the store calls it with its own request and outcome types, and
    // the generic entry point looked their metadata up at run time on every save.
    @usableFromInline let queue = Lock(Queue())

    /// An empty queue: the first caller leads.
    public init() {}

    /// Submits `request` and returns its outcome once it is committed.
    ///
    /// - Parameter commit: Commits a batch, in order, setting every request's `result`. Called by whichever
    ///   caller leads, one batch at a time.
    @inlinable public func submit(_ request: Request, commit: ([Pending]) -> Void) throws -> Outcome {
        let mine = Pending(request)
        let leads = queue.withLock { queue in
            queue.waiting.append(mine)
            guard !queue.leading else { return false }
            queue.leading = true
            return true
        }
        if !leads {
            mine.ready.wait()
            if let result = mine.result { return try result.get() }
            // Woken without a result: the previous leader handed over the lead.
        }
        gatherCallers()
        let batch = queue.withLock { queue in
            defer {
                queue.lastBatchSize = queue.waiting.count
                queue.waiting = []
            }
            return queue.waiting
        }
        commit(batch)
        for pending in batch where pending !== mine {
            pending.ready.signal()
        }
        let next = queue.withLock { queue -> Pending? in
            guard let next = queue.waiting.first else {
                queue.leading = false
                return nil
            }
            return next
        }
        next?.ready.signal()
        guard let result = mine.result else {
            return try Result<Outcome, any Error>.failure(CommitQueueError.noResult).get()
        }
        return try result.get()
    }
}

extension CommitQueue {
    /// While the last batch held several saves, waits (yielding the processor) until as many are waiting
    /// again or ``gatheringLimit`` passes: callers woken by the last batch need a moment to submit their next
    /// save, and without this wait each batch would hold only the callers that happened to be quick.
    @usableFromInline func gatherCallers() {
        let (waiting, expected) = queue.withLock { ($0.waiting.count, $0.lastBatchSize) }
        guard expected > 1, waiting < expected else { return }
        let clock = ContinuousClock()
        let deadline = clock.now + Self.gatheringLimit
        while clock.now < deadline {
            if queue.withLock({ $0.waiting.count }) >= expected { return }
            sched_yield()
        }
    }
}

/// A batch commit left a request without a result: a bug in the store's `commit`.
@_spi(DataStoreInternals) public struct CommitQueueError: Error {
    @usableFromInline static let noResult = CommitQueueError()
}
