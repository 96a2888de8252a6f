public import DataStoreCore

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An advisory lock on a separate lock file, with `flock`: exclusive for writers, shared for readers.
///
/// A store opens its lock file once and keeps the descriptor for its lifetime: reopening it for every call
/// would re-create a removed store directory's lock file and raise a close-after-write event in the
/// directory on every read. The kernel releases the lock when its holder exits, even by `kill -9`, so a lock
/// file left behind by a killed process is harmless.
///
/// The file's only content is a change count (`ChangeCounter`): releasing the exclusive lock adds one, so a
/// reader that finds the count it last read knows that no writer has held the lock since.
///
/// `flock` locks belong to the open file, not to a thread: callers in one process must serialise their use
/// of one `FileLock` themselves (the stores do, with their writer mutex). That is also why it is `Sendable`.
public final class FileLock: @unchecked Sendable {
    /// Exclusive for one writer, or shared among readers.
    public enum Kind: Sendable {
        /// One holder at a time; excludes shared holders.
        case exclusive
        /// Many holders at once; excludes an exclusive holder.
        case shared
    }

    /// The lock file's path.
    public let path: String
    private let file: StoreFile
    private let counter: ChangeCounter?

    /// Opens the lock file, creating it unless `readOnly`.
    public init(path: String, readOnly: Bool) throws(DataStoreError) {
        self.path = path
        file = try StoreFile(path: path, mode: readOnly ? .readOnly : .readWrite(create: true))
        counter = ChangeCounter(file, writable: !readOnly)
    }

    /// How many times an exclusive lock on this file has been released (modulo 2^64), read without a system
    /// call; `nil` when the count is not available (a read-only opener of a lock file no writer of this
    /// version has opened), and then nothing can be concluded from it.
    @_spi(DataStoreInternals) public var changeCount: UInt64? { counter?.value }

    /// Runs `body` holding the lock at `path`, opened for this call only: for opening a store, before it
    /// keeps a lock open. A read-only caller whose lock file does not exist runs `body` unlocked rather than
    /// create the file (a read-only store never writes, not even an empty lock file).
    ///
    /// - Parameters:
    ///   - kind: Shared or exclusive.
    ///   - path: The lock file.
    ///   - readOnly: Whether the caller only reads (it then never creates the lock file).
    ///   - timeout: How long to wait for another process's lock.
    ///   - countsFailure: Whether releasing an exclusive lock after `body` threw counts a change. An open that
    ///     is refused changed nothing a reader can see (it may cut back a torn tail, which no reader ever
    ///     read), so it passes `false` and leaves the lock file as it was.
    ///   - body: What to run holding the lock.
    public static func withLock<T>(
        _ kind: Kind, path: String, readOnly: Bool, timeout: Duration, countsFailure: Bool = true,
        _ body: () throws -> T
    ) throws -> T {
        if readOnly && !StoreFile.exists(path) { return try body() }
        return try FileLock(path: path, readOnly: readOnly).withLock(
            kind, timeout: timeout, countsFailure: countsFailure, body)
    }

    /// Runs `body` holding the lock, waiting for it at most `timeout`.
    ///
    /// - Parameters:
    ///   - kind: Shared or exclusive.
    ///   - timeout: How long to wait for another process's lock.
    ///   - countsFailure: Whether releasing an exclusive lock after `body` threw counts a change (by default it
    ///     does: a write that failed may have changed what readers see).
    ///   - body: What to run holding the lock.
    /// - Throws: `DataStoreError/storeLocked(path:)` when another process held the lock for all of
    ///   `timeout` (a zero timeout fails at once if the lock is taken).
    public func withLock<T>(
        _ kind: Kind, timeout: Duration, countsFailure: Bool = true, _ body: () throws -> T
    ) throws -> T {
        try acquire(kind, timeout: timeout)
        var succeeded = false
        defer {
            // Readers that saw the count before must look again, unless `body` failed without a change.
            if kind == .exclusive && (succeeded || countsFailure) { counter?.increment() }
            release()
        }
        let result = try body()
        succeeded = true
        return result
    }

    private func acquire(_ kind: Kind, timeout: Duration) throws(DataStoreError) {
        let operation = (kind == .exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        // `flock` has no timeout, so a waiter polls. It backs off from 50 µs to 1 ms and no further: a longer
        // pause lets writers that release and re-take the lock in a loop starve the waiter (seen with four
        // processes saving at full speed). A 1 ms poll costs a few microseconds of CPU.
        var pause: Duration = .microseconds(50)
        while true {
            if retryingOnInterrupt({ flock(file.descriptor, operation) }) == 0 { return }
            guard errno == EWOULDBLOCK else { throw systemError("flock", path: path) }
            let now = clock.now
            guard now < deadline else { throw .storeLocked(path: path) }
            let wait = min(pause, now.duration(to: deadline))
            let microseconds =
                wait.components.seconds * 1_000_000 + wait.components.attoseconds / 1_000_000_000_000
            usleep(useconds_t(max(1, microseconds)))
            pause = min(pause * 2, .microseconds(200))
        }
    }

    private func release() {
        _ = flock(file.descriptor, LOCK_UN)
    }
}
