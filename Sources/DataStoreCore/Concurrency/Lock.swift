#if DATASTORE_TSAN
    #if canImport(Glibc)
        @preconcurrency public import Glibc
    #elseif canImport(Musl)
        @preconcurrency public import Musl
    #elseif canImport(Darwin)
        public import Darwin
    #endif
#else
    public import Synchronization
#endif

/// The package's one lock: a value that threads take turns with, each inside ``withLock(_:)``.
///
/// In every build but one it is the standard library's `Synchronization.Mutex`, stored inline. ThreadSanitizer
/// on Linux does not see `Mutex` (it waits on a futex without telling the sanitizer), so a build for it
/// (`-Xswiftc -DDATASTORE_TSAN`, which `Scripts/sanitize` passes) uses a `pthread_mutex_t` instead, which the
/// sanitizer intercepts: the same code is then checked for races without false reports from the lock itself.
///
/// Hold it only for short, in-memory steps: never across file or network I/O, never while waiting for another
/// lock that may be held while waiting for this one, and never in code that suspends.
///
/// Why a public type behind an SPI (`@_spi(DataStoreInternals) import DataStoreCore` sees it) rather than a
/// `package` one: the compiler does not inline or specialise the `@inlinable` members of a `package` type in
/// other modules, so every `withLock` from another module of the package ran the generic entry point and looked
/// its types' metadata up at run time. Its members are public too (code inlined into another module may call
/// only public ones); a client that does not import the SPI does not see the type at all.
@_spi(DataStoreInternals) public struct Lock<Value>: ~Copyable {
    #if DATASTORE_TSAN
        @usableFromInline let box: Box

        /// The value and a pthread mutex, on the heap so that the mutex never moves.
        @usableFromInline final class Box: @unchecked Sendable {
            // `@unchecked`: `value` is touched only while `mutex` is held.
            @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
            @usableFromInline var value: Value

            init(_ value: Value) {
                self.value = value
                mutex = .allocate(capacity: 1)
                mutex.initialize(to: pthread_mutex_t())
                pthread_mutex_init(mutex, nil)
            }

            deinit {
                pthread_mutex_destroy(mutex)
                mutex.deallocate()
            }
        }
    #else
        @usableFromInline let mutex: Mutex<Value>
    #endif

    /// A lock around `initialValue`.
    public init(_ initialValue: consuming sending Value) {
        #if DATASTORE_TSAN
            box = Box(initialValue)
        #else
            mutex = Mutex(initialValue)
        #endif
    }

    /// Runs `body` with exclusive access to the value, and returns what it returns.
    ///
    /// Inlinable so that callers in other modules get a copy specialised for their types: the generic entry
    /// point looks the types' metadata up at run time on every call.
    @inlinable public borrowing func withLock<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        #if DATASTORE_TSAN
            pthread_mutex_lock(box.mutex)
            defer { pthread_mutex_unlock(box.mutex) }
            return try body(&box.value)
        #else
            return try mutex.withLock(body)
        #endif
    }
}

extension Lock: @unchecked Sendable {}
