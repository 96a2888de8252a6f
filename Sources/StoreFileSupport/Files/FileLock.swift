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
/// The kernel releases the lock when its holder exits, even by `kill -9`, so a lock file left behind by a
/// killed process is harmless: the next opener simply takes the lock. The file's contents are never written.
public final class FileLock {
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

    /// Opens the lock file, creating it (empty) unless `readOnly`.
    public init(path: String, readOnly: Bool) throws(DataStoreError) {
        self.path = path
        file = try StoreFile(path: path, mode: readOnly ? .readOnly : .readWrite(create: true))
    }

    /// Runs `body` holding the lock at `path`. A read-only caller whose lock file does not exist runs `body`
    /// unlocked rather than create the file (a read-only store never writes, not even an empty lock file).
    public static func withLock<T>(_ kind: Kind, path: String, readOnly: Bool, _ body: () throws -> T) throws
        -> T
    {
        if readOnly && !StoreFile.exists(path) { return try body() }
        return try FileLock(path: path, readOnly: readOnly).withLock(kind, body)
    }

    /// Runs `body` holding the lock, waiting for it as long as it takes.
    public func withLock<T>(_ kind: Kind, _ body: () throws -> T) throws -> T {
        try acquire(kind, wait: true)
        defer { release() }
        return try body()
    }

    /// Runs `body` holding the lock, or throws ``DataStoreError/storeLocked(path:)`` at once if another
    /// process holds it.
    public func withLockIfAvailable<T>(_ kind: Kind, _ body: () throws -> T) throws -> T {
        try acquire(kind, wait: false)
        defer { release() }
        return try body()
    }

    private func acquire(_ kind: Kind, wait: Bool) throws(DataStoreError) {
        let operation = (kind == .exclusive ? LOCK_EX : LOCK_SH) | (wait ? 0 : LOCK_NB)
        guard retryingOnInterrupt({ flock(file.descriptor, operation) }) == 0 else {
            if errno == EWOULDBLOCK { throw .storeLocked(path: path) }
            throw systemError("flock", path: path)
        }
    }

    private func release() {
        _ = flock(file.descriptor, LOCK_UN)
    }
}
