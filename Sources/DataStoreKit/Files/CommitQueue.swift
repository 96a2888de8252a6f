import DataStoreCore
import Dispatch
import Foundation
import Synchronization

/// Group commit: saves that arrive while another is being written wait, and are then written together by
/// one of them, with one append and one `fdatasync`, each acknowledged only after that.
///
/// The first caller becomes the *leader*: it takes every waiting request (its own first), commits them as
/// one batch, hands each caller its result, and passes the lead to the next waiting caller, if any. A
/// caller is never acknowledged before the batch holding its request has been committed (or has failed).
package final class CommitQueue<Request: Sendable, Outcome: Sendable>: Sendable {
    /// One caller's request, and the result the leader hands back.
    package final class Pending: @unchecked Sendable {
        // `@unchecked`: `result` is written by the leader before it signals `ready`, and read by the caller
        // only after waiting on it (the semaphore orders the two).
        package let request: Request
        package var result: Result<Outcome, any Error>?
        let ready = DispatchSemaphore(value: 0)

        package init(_ request: Request) { self.request = request }
    }

    private struct Queue: @unchecked Sendable {
        // `@unchecked`: only touched under the mutex.
        var waiting: [Pending] = []
        var leading = false
        /// How many saves the last batch held: the callers of a batch usually come back together.
        var lastBatchSize = 1
    }

    /// The longest a leader waits for the callers of the previous batch to come back before writing: a
    /// fraction of an `fdatasync`, paid only while several callers are saving at once.
    private static var gatheringLimit: Duration { .microseconds(150) }

    private let queue = Lock(Queue())

    package init() {}

    /// Submits `request` and returns its outcome once it is committed.
    ///
    /// - Parameter commit: Commits a batch, in order, setting every request's `result`. Called by whichever
    ///   caller leads, one batch at a time.
    package func submit(_ request: Request, commit: ([Pending]) -> Void) throws -> Outcome {
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
    private func gatherCallers() {
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
package struct CommitQueueError: Error {
    static let noResult = CommitQueueError()
}
