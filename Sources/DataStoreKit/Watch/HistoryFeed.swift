@_spi(DataStoreInternals) public import DataStoreCore
import Foundation
import Synchronization

/// Turns "fetch what is new" into an `AsyncThrowingStream` that follows commits from any process: the shared
/// engine behind the stores' `historyUpdates(after:)`.
///
/// A background thread watches the store's directory with ``ChangeWatcher`` (or another waker). The watch
/// starts before the first fetch, so a commit is either in that fetch's backlog or wakes the thread afterwards:
/// no gap. Each wake calls `fetchNew`, which returns what came after the last transaction it returned: no
/// duplicates. Between commits the thread sleeps in its waker with no timer; cancelling the consuming task
/// wakes it through a ``FeedCancellation``, ends it and closes its descriptors at once.
///
/// Memory is bounded: the stream buffers at most ``bufferCapacity`` transactions. When the consumer is slower
/// than the commits, the feed keeps what did not fit and fetches nothing more until there is room (the
/// token-based feeds fetch at most ``pageSize`` transactions at a time, after the last one delivered), so a
/// slow consumer delays delivery but never loses a transaction or grows memory without limit.
public enum HistoryFeed {
    /// How many transactions a feed's stream holds for its consumer at most.
    public static let bufferCapacity = 256
    /// How many transactions a token-based feed fetches at a time.
    public static let pageSize = 256
    /// How long a feed whose consumer is behind waits before offering its next transaction again: from the
    /// first, doubling while the consumer takes nothing, up to the last (microseconds). A consumer that keeps
    /// the stream but stops reading costs the feed about four wake-ups a second, not hundreds.
    static let backoff: (first: UInt32, last: UInt32) = (2_000, 250_000)

    /// A stream of what `fetchNew` returns, called once at once and again after every change in `directory`.
    ///
    /// - Parameters:
    ///   - directory: The directory whose changes wake the feed.
    ///   - isCommitFile: Whether a file name in `directory` is one a commit writes.
    ///   - fetchNew: Returns the transactions after those it returned before (the backlog on its first call).
    ///     Throwing ends the stream with that error. What one call returns is held until the consumer takes
    ///     it; prefer the token-based variants, which fetch a page at a time.
    public static func stream<Element: Sendable>(
        watching directory: String, commitFiles isCommitFile: @escaping @Sendable (String) -> Bool,
        fetchNew: @escaping @Sendable () throws -> [Element]
    ) -> AsyncThrowingStream<Element, any Error> {
        stream(
            label: directory, waker: { ChangeWatcher(directory: directory, isCommitFile: isCommitFile) },
            pageSize: nil, fetchNew: fetchNew)
    }

    /// A stream of what `fetchNew` returns, called once at once and again whenever the waker reports a
    /// possible commit: the engine for any store that can be woken (a directory watch, a database's
    /// `LISTEN`).
    ///
    /// The waker is made before the first fetch, so a commit is either in that fetch's backlog or wakes the
    /// thread afterwards.
    ///
    /// - Parameters:
    ///   - label: Names the feed's thread and keys the count of live feeds that tests read.
    ///   - makeWaker: Makes the waker on the feed's thread; it is released there when the feed ends. Throwing ends
    ///     the stream with that error.
    ///   - pageSize: When a fetch returns this many transactions or more, more may be waiting: the feed
    ///     fetches again once the consumer has room, without waiting for a wake. `nil`: every fetch returns all
    ///     that is new.
    ///   - fetchNew: Returns the transactions after those it returned before (the backlog on its first call).
    ///     Throwing ends the stream with that error.
    public static func stream<Element: Sendable>(
        label: String, waker makeWaker: @escaping @Sendable () throws -> any HistoryFeedWaker,
        pageSize: Int? = nil, fetchNew: @escaping @Sendable () throws -> [Element]
    ) -> AsyncThrowingStream<Element, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream(
            bufferingPolicy: .bufferingOldest(bufferCapacity))
        let cancellation = FeedCancellation()
        continuation.onTermination = { _ in cancellation.cancel() }
        let thread = Thread {
            LiveFeeds.shared.change(label, by: 1)
            defer { LiveFeeds.shared.change(label, by: -1) }
            // The waker lives in this scope only: its descriptor is closed before the feed counts as ended.
            do {
                let waker = try makeWaker()
                var changed = true  // the backlog first
                var pending: [Element] = []  // fetched, not yet taken by the stream
                var next = 0
                var pause = backoff.first
                while !cancellation.isCancelled {
                    if next == pending.count, changed {
                        LiveFeeds.shared.countRefresh(label)
                        pending = try fetchNew()
                        next = 0
                        // A full page means more may be waiting: fetch again once this one is delivered.
                        changed = pageSize.map { pending.count >= $0 } ?? false
                    }
                    offer: while next < pending.count {
                        switch continuation.yield(pending[next]) {
                        case .enqueued:
                            next += 1
                            pause = backoff.first
                        case .dropped: break offer  // the consumer is behind: offer it again shortly
                        case .terminated: return
                        @unknown default: break offer
                        }
                    }
                    if next < pending.count {
                        usleep(pause)
                        pause = min(pause * 2, backoff.last)
                        // Commits meanwhile are noticed by the waker later (inotify queues them; a database
                        // feed refetches after its interval), and the fetch after this page finds them.
                    } else if !changed {
                        // Sleeps until a commit or cancellation.
                        changed = try waker.waitForChange(orUntil: cancellation)
                    }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        thread.name = "HistoryFeed \(label)"
        thread.start()
        return stream
    }
}

/// What wakes a ``HistoryFeed``: a directory watch (``ChangeWatcher``), a database's notifications.
///
/// # Implementation requirements
///
/// - ``waitForChange(orUntil:)`` returns `true` as soon as a commit may have happened since the waker was made
///   or last returned. Returning `true` without a commit only costs a fetch; missing a commit delays it until
///   the next `true`.
/// - It returns promptly once `cancellation` is set: wait in `poll` on your own descriptor and
///   ``FeedCancellation/descriptor`` together, with ``FeedCancellation/pollTimeout(upTo:)`` as the timeout.
///   An event-driven waker needs no timer of its own, so an idle feed does no work; a polling waker returns
///   `true` after each of its intervals.
/// - Throwing ends the feed with the error.
public protocol HistoryFeedWaker: AnyObject {
    /// Waits for a possible commit, or for `cancellation`.
    func waitForChange(orUntil cancellation: FeedCancellation) throws -> Bool
}

extension ChangeWatcher: HistoryFeedWaker {
    /// ``wait(upTo:orUntil:)`` with no limit of its own.
    public func waitForChange(orUntil cancellation: FeedCancellation) -> Bool {
        wait(upTo: nil, orUntil: cancellation)
    }
}

extension HistoryFeed {
    /// A stream that yields each time the waker reports a possible commit: what observers that fetch by
    /// themselves wait on (a store's `commitSignals()`), without the feed fetching anything.
    ///
    /// The waker is made before this returns, so every commit after the call wakes the stream. Signals that
    /// arrive while the consumer is busy merge into one. If the waker throws, the stream yields once (so the
    /// consumer looks and meets the store's own error) and goes on at the polling interval: it never goes
    /// quiet while commits may be happening.
    ///
    /// - Parameters:
    ///   - label: Names the thread and keys the counts of live feeds and wakes that tests read.
    ///   - makeWaker: Makes the waker; it is released on the feed's thread when the consumer goes away.
    ///   - settle: Runs on the feed's thread after each wake, before the signal: for a store whose wake can
    ///     come before the commit is visible to a plain read (a write seen at its first byte), it waits for
    ///     the writer, so that the consumer's look finds the commit. Its errors are ignored (the look meets
    ///     them).
    public static func signals(
        label: String, waker makeWaker: @escaping @Sendable () throws -> any HistoryFeedWaker,
        settle: (@Sendable () throws -> Void)? = nil
    ) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let cancellation = FeedCancellation()
        continuation.onTermination = { _ in cancellation.cancel() }
        // Made here, not on the thread: a commit between this call and the thread's start must wake it.
        let waker = SendableWaker(try? makeWaker())
        LiveFeeds.shared.change(label, by: 1)
        let thread = Thread {
            defer { LiveFeeds.shared.change(label, by: -1) }
            var current = waker.take()
            while !cancellation.isCancelled {
                let changed: Bool
                if let active = current {
                    do {
                        changed = try active.waitForChange(orUntil: cancellation)
                    } catch {
                        current = nil
                        changed = true
                    }
                } else {
                    changed = cancellation.sleep(for: ChangeWatcher.defaultInterval)
                }
                guard changed else { continue }
                try? settle?()
                LiveFeeds.shared.countRefresh(label)
                if case .terminated = continuation.yield() { break }
            }
            current = nil
        }
        thread.name = "HistoryFeed signals \(label)"
        thread.start()
        return stream
    }
}

/// Hands a waker made on one thread to the feed thread that alone uses it.
private final class SendableWaker: @unchecked Sendable {
    // `@unchecked`: written once before the thread starts, taken once on it.
    private var waker: (any HistoryFeedWaker)?
    init(_ waker: (any HistoryFeedWaker)?) { self.waker = waker }
    func take() -> (any HistoryFeedWaker)? {
        defer { waker = nil }
        return waker
    }
}

extension HistoryFeed {
    /// A stream of the transactions after `token`, then each new one: `fetch(after:limit:)` is called with
    /// the last fetched element's token (`token` at first) and ``pageSize`` whenever the directory changes,
    /// and again at once after a full page.
    public static func stream<Element: Sendable, Token: Sendable>(
        watching directory: String, commitFiles isCommitFile: @escaping @Sendable (String) -> Bool,
        after token: Token?,
        fetch: @escaping @Sendable (_ after: Token?, _ limit: Int) throws -> [Element],
        tokenOf: @escaping @Sendable (Element) -> Token
    ) -> AsyncThrowingStream<Element, any Error> {
        stream(
            label: directory, waker: { ChangeWatcher(directory: directory, isCommitFile: isCommitFile) },
            after: token, fetch: fetch, tokenOf: tokenOf)
    }

    /// A stream of the transactions after `token`, then each new one: `fetch(after:limit:)` is called with
    /// the last fetched element's token (`token` at first) and ``pageSize`` whenever the waker reports a
    /// possible commit, and again at once after a full page.
    public static func stream<Element: Sendable, Token: Sendable>(
        label: String, waker: @escaping @Sendable () throws -> any HistoryFeedWaker, after token: Token?,
        fetch: @escaping @Sendable (_ after: Token?, _ limit: Int) throws -> [Element],
        tokenOf: @escaping @Sendable (Element) -> Token
    ) -> AsyncThrowingStream<Element, any Error> {
        let cursor = FeedCursor(token)
        return stream(label: label, waker: waker, pageSize: pageSize) {
            let new = try fetch(cursor.token, pageSize)
            if let last = new.last { cursor.token = tokenOf(last) }
            return new
        }
    }
}

extension HistoryFeed {
    /// A store's `historyUpdates(after:)`: its transactions after `token`, then each new one, fetched a page at
    /// a time with "after the last fetched token" whenever `directory` changes. Both file stores use this.
    public static func stream<Store: HistoryProviding>(
        of store: Store, watching directory: String,
        commitFiles isCommitFile: @escaping @Sendable (String) -> Bool,
        after token: Store.HistoryType.Token?
    ) -> AsyncThrowingStream<Store.HistoryType, any Error> {
        stream(
            of: store, label: directory,
            waker: { ChangeWatcher(directory: directory, isCommitFile: isCommitFile) }, after: token)
    }

    /// A store's `historyUpdates(after:)`, fetched a page at a time with "after the last fetched token"
    /// whenever the waker reports a possible commit.
    public static func stream<Store: HistoryProviding>(
        of store: Store, label: String, waker: @escaping @Sendable () throws -> any HistoryFeedWaker,
        after token: Store.HistoryType.Token?
    ) -> AsyncThrowingStream<Store.HistoryType, any Error> {
        stream(
            label: label, waker: waker, after: token,
            fetch: { after, limit in
                try store.fetchHistory(
                    HistoryDescriptor(predicate: after.map { HistoryPredicates.after($0) }, fetchLimit: limit)
                )
            },
            tokenOf: { $0.token })
    }
}

/// The token of the last element a feed fetched.
final class FeedCursor<Token: Sendable>: Sendable {
    private let value: Lock<Token?>
    init(_ token: Token?) { value = Lock(token) }
    var token: Token? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}

extension HistoryFeed {
    /// How many feeds are watching `directory` right now: a feed counts from its start until its thread has
    /// closed its watch. Tests use it to check that cancelling a feed releases it.
    package static func liveFeedCount(watching directory: String) -> Int {
        LiveFeeds.shared.count(directory)
    }

    /// How many times feeds watching `directory` have fetched (woken), since the process started. Tests use it
    /// to check that an idle feed stays asleep.
    package static func refreshCount(watching directory: String) -> Int {
        LiveFeeds.shared.refreshes(directory)
    }
}

/// The live feeds per directory.
final class LiveFeeds: Sendable {
    static let shared = LiveFeeds()
    private let counts = Lock<[String: Int]>([:])
    private let refreshCounts = Lock<[String: Int]>([:])

    func countRefresh(_ directory: String) {
        refreshCounts.withLock { $0[directory, default: 0] += 1 }
    }

    func refreshes(_ directory: String) -> Int {
        refreshCounts.withLock { $0[directory] ?? 0 }
    }

    func change(_ directory: String, by delta: Int) {
        counts.withLock { $0[directory, default: 0] += delta }
    }

    func count(_ directory: String) -> Int {
        counts.withLock { $0[directory] ?? 0 }
    }
}
