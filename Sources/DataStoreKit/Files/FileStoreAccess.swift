@_spi(DataStoreInternals) public import DataStoreCore
import Synchronization

/// The locking scaffold both file stores share: how a store instance's threads and other processes take
/// turns with one directory of files.
///
/// - **In this process**, one writer at a time: a writer mutex is held from taking the file lock until
///   the write is applied in memory. The state itself sits behind a second mutex that is held only for
///   short, in-memory steps, never while waiting for the file lock or for an fsync.
/// - **Across processes**, the `flock` lock file, opened once and kept open, waited for at most the busy
///   timeout (then `DataStoreError/storeLocked(path:)`).
/// - **Readers that find nothing new** (by the store's `isCurrent`: the lock file's change count, or a `stat`
///   or `fstat`) answer from memory without waiting for a writer, this instance's own included (until its
///   `perform` returns they see the state before its write). A reader that finds new bytes waits for this
///   instance's writer, then takes the shared file lock and reads them: so a change feed woken by a write
///   never reads before the write is applied, and never misses it.
/// - **A failed cut-back** (`DataStoreError/storeUnusableUntilReopened(path:reason:)`) makes every later
///   call throw that error, until the store is reopened.
///
/// Public behind an SPI, with `package` methods, for the reason `Lock` is: the stores in other modules then get
/// its methods specialised for their state.
@_spi(DataStoreInternals) public final class FileStoreAccess<State: Sendable>: Sendable {
    @usableFromInline struct Guarded: Sendable {
        @usableFromInline var state: State
        @usableFromInline var unusable: DataStoreError?
        /// The lock file's change count when `state` was last brought up to date under the lock, and the lock
        /// it was read from (see `FileLock.changeCount`).
        @usableFromInline var seen: (lock: FileLock, count: UInt64)?

        /// Whether no writer has released the exclusive lock since `state` was brought up to date.
        @inlinable var unchangedSinceSeen: Bool {
            guard let seen else { return false }
            return seen.lock.changeCount == seen.count
        }

        /// Records that `state` is current as of `count` on `lock` (forgets it when either is unknown).
        @inlinable mutating func see(_ count: UInt64?, on lock: FileLock?) {
            seen = lock.flatMap { lock in count.map { (lock, $0) } }
        }
    }

    // Internal and usable from inline code, like the methods below: the stores call them with their own state
    // type, and the generic entry points looked the types' metadata up at run time on every call (a tenth of a
    // small save's instructions).
    @usableFromInline let guarded: Lock<Guarded>
    @usableFromInline let writers = Lock(())
    @usableFromInline let lockPath: String
    @usableFromInline let lock: Lock<FileLock?>
    @usableFromInline let readOnly: Bool
    /// How long to wait for another process's lock before throwing `DataStoreError/storeLocked(path:)`.
    public let busyTimeout: Duration

    /// Wraps `state`; opens (and, unless `readOnly`, creates) the lock file at `lockPath`.
    package init(_ state: State, lockPath: String, readOnly: Bool, busyTimeout: Duration)
        throws(DataStoreError)
    {
        guarded = Lock(Guarded(state: state))
        self.lockPath = lockPath
        self.readOnly = readOnly
        self.busyTimeout = busyTimeout
        lock = Lock(try Self.openLock(lockPath, readOnly: readOnly))
    }

    /// A read-only store never creates the lock file; without one there is no writer to exclude.
    @usableFromInline static func openLock(_ path: String, readOnly: Bool) throws(DataStoreError) -> FileLock?
    {
        if readOnly && !StoreFile.exists(path) { return nil }
        return try FileLock(path: path, readOnly: readOnly)
    }

    @inlinable func withFileLock<T>(_ kind: FileLock.Kind, _ body: (FileLock?) throws -> T) throws -> T {
        let current = try lock.withLock { lock throws(DataStoreError) in
            if lock == nil { lock = try Self.openLock(lockPath, readOnly: readOnly) }
            return lock
        }
        guard let current else { return try body(nil) }
        return try current.withLock(kind, timeout: busyTimeout) { try body(current) }
    }

    @inlinable func checkUsable() throws(DataStoreError) {
        if let unusable = guarded.withLock({ $0.unusable }) { throw unusable }
    }

    /// Runs `body` on the state as it is in memory, without refreshing or locking files: for counters.
    @inlinable package func inMemory<T: Sendable>(_ body: (inout State) -> T) -> T {
        guarded.withLock { body(&$0.state) }
    }

    /// Runs `body` on state that is current with the files.
    ///
    /// - Parameters:
    ///   - isCurrent: Whether the files still hold what `state` was read from. Its second argument says
    ///     whether no writer has released the exclusive lock since `state` was brought up to date (by the lock
    ///     file's change count, with no system call); `false` when that cannot be told.
    ///   - refresh: Reads what changed; called holding the shared file lock.
    @inlinable package func read<T: Sendable>(
        isCurrent: (State, _ unchangedSinceRead: Bool) -> Bool, refresh: (inout State) throws -> Void,
        _ body: (inout State) throws -> T
    ) throws -> T {
        // The fast path takes one lock: the state's, which also holds whether the instance is usable.
        let fast: T? = try guarded.withLock { guarded throws -> T? in
            if let unusable = guarded.unusable { throw unusable }
            guard isCurrent(guarded.state, guarded.unchangedSinceSeen) else { return nil }
            return try body(&guarded.state)
        }
        if let fast { return fast }
        return try writers.withLock { _ in
            try checkUsable()
            return try withFileLock(.shared) { fileLock in
                try guarded.withLock { guarded in
                    // Read before the files: a writer that follows cannot have counted yet.
                    let count = fileLock?.changeCount
                    try refresh(&guarded.state)
                    guarded.see(count, on: fileLock)
                    return try body(&guarded.state)
                }
            }
        }
    }

    /// Runs a write in three steps, holding the exclusive file lock throughout: `prepare` on current state,
    /// `perform` (the file I/O, such as an append and its fsync) with the state mutex released so that
    /// readers go on, then `finish` to apply the outcome in memory.
    @inlinable package func write<Prepared: Sendable, Outcome: Sendable, T: Sendable>(
        refresh: (inout State) throws -> Void, prepare: (inout State) throws -> Prepared,
        perform: (Prepared) throws -> Outcome, finish: (inout State, Prepared, Outcome) throws -> T
    ) throws -> T {
        try checkUsable()
        return try writers.withLock { _ in
            try checkUsable()
            return try withFileLock(.exclusive) { fileLock in
                let prepared = try guarded.withLock { guarded in
                    // Current from here until this write counts its change on release: readers of this
                    // instance go on from memory while `perform` waits for the disk.
                    let count = fileLock?.changeCount
                    try refresh(&guarded.state)
                    guarded.see(count, on: fileLock)
                    return try prepare(&guarded.state)
                }
                let outcome: Outcome
                do {
                    outcome = try perform(prepared)
                } catch {
                    guarded.withLock { guarded in
                        if case .storeUnusableUntilReopened = error as? DataStoreError {
                            guarded.unusable = error as? DataStoreError
                        }
                    }
                    throw error
                }
                return try guarded.withLock { guarded in
                    do {
                        let result = try finish(&guarded.state, prepared, outcome)
                        // Releasing the exclusive lock adds one to the count: this write's own change is
                        // already in `state`.
                        let count = fileLock?.changeCount
                        guarded.see(count.map { $0 &+ 1 }, on: fileLock)
                        return result
                    } catch {
                        if case .storeUnusableUntilReopened = error as? DataStoreError {
                            guarded.unusable = error as? DataStoreError
                        }
                        throw error
                    }
                }
            }
        }
    }

    /// Runs `body` on current state holding the exclusive file lock and the state mutex: for writes that are
    /// rare and quick enough (an erase, a schema record) to keep readers waiting. Writes that take as long as
    /// the store is large work on a copy of the state instead (see `JSONFileDataStore.writeAside`).
    @inlinable package func write<T: Sendable>(
        refresh: (inout State) throws -> Void, _ body: (inout State) throws -> T
    )
        throws -> T
    {
        try write(
            refresh: refresh, prepare: { _ in () }, perform: { _ in () },
            finish: { state, _, _ in try body(&state) })
    }
}
