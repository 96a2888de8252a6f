@_spi(DataStoreInternals) import DataStoreCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ends a feed's wait the moment its consumer goes away: a flag, and a pipe whose read end becomes readable when
/// the flag is set, so a waker can block in `poll` on its own descriptor and this one with no timeout at all.
/// That is what lets an idle feed sleep until a commit instead of waking a few times a second to look for
/// cancellation.
public final class FeedCancellation: Sendable {
    private let flag = Lock(false)
    private let readEnd: Int32
    private let writeEnd: Int32

    /// A cancellation that is not set yet. If the process is out of descriptors it has none, and wakers fall
    /// back to waking at an interval to read ``isCancelled``.
    public init() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            (readEnd, writeEnd) = (-1, -1)
            return
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        (readEnd, writeEnd) = (ends[0], ends[1])
    }

    deinit {
        if readEnd >= 0 { close(readEnd) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    /// Whether the feed's consumer is gone.
    public var isCancelled: Bool { flag.withLock { $0 } }

    /// A descriptor that becomes readable once the feed is cancelled: add it to the `poll` a waker waits in.
    /// `-1` when there is none; wakers must then wake at an interval (``interval``) to read ``isCancelled``.
    public var descriptor: Int32 { readEnd }

    /// How long a waker may block at most: forever (`nil`) when ``descriptor`` wakes it, otherwise a quarter
    /// of a second, so that it notices ``isCancelled``.
    public var interval: Duration? { readEnd >= 0 ? nil : .milliseconds(250) }

    /// Sets the flag and wakes whoever waits on ``descriptor``.
    public func cancel() {
        let first = flag.withLock { isSet in
            defer { isSet = true }
            return !isSet
        }
        guard first, writeEnd >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Sleeps for `interval`, or less if the feed is cancelled meanwhile; returns whether it is still live (not
    /// cancelled): the polling fallbacks' wait.
    @discardableResult
    public func sleep(for interval: Duration) -> Bool {
        var cancelled = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&cancelled, 1, pollTimeout(upTo: interval))
        return !isCancelled
    }

    /// `poll`'s timeout in milliseconds for a wait of at most `limit` (`nil`: no limit of the waker's own):
    /// the shorter of `limit` and ``interval``, or `-1` (forever).
    public func pollTimeout(upTo limit: Duration?) -> Int32 {
        let bound = [limit, interval].compactMap { $0 }.min()
        guard let bound else { return -1 }
        let milliseconds =
            bound.components.seconds * 1000 + bound.components.attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(0, milliseconds))
    }
}
