import DataStoreCore
import Synchronization

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A count of the exclusive locks released on a store, kept in the first 8 bytes of its lock file and shared
/// by every process through a memory mapping: a reader compares it with the count it last read under the
/// lock and knows, without a system call, that no writer has changed the files since.
///
/// Why not the journal's size: a journal with free space at its end (see `RecordFraming.Ending`) does not
/// grow when a record is written into it. The count is a hint, never data: it starts from whatever the file
/// holds, wraps around, is not fsynced, and a process that crashes while holding the lock does not count its
/// release (the kernel releases the lock; readers see its changes at the next count, or on opening).
final class ChangeCounter: @unchecked Sendable {
    // `@unchecked`: the mapping is read and written only through atomic operations.
    private let mapping: UnsafeMutableRawPointer
    private let writable: Bool
    private static let length = 8

    /// Maps the count in the lock file open as `file`; `nil` when the file is shorter than 8 bytes and cannot
    /// be lengthened (`writable` is false) or cannot be mapped. A writer lengthens a shorter file: with zeros,
    /// only when it is shorter, so a count another process keeps is never reset.
    init?(_ file: StoreFile, writable: Bool) {
        guard let size = try? file.status().size else { return nil }
        if size < Int64(Self.length) {
            guard writable, ftruncate(file.descriptor, off_t(Self.length)) == 0 else { return nil }
        }
        let protection = writable ? PROT_READ | PROT_WRITE : PROT_READ
        guard let address = mmap(nil, Self.length, protection, MAP_SHARED, file.descriptor, 0),
            address != MAP_FAILED
        else { return nil }
        mapping = address
        self.writable = writable
    }

    deinit {
        munmap(mapping, Self.length)
    }

    private var atomic: UnsafeMutablePointer<Atomic<UInt64>> {
        mapping.assumingMemoryBound(to: Atomic<UInt64>.self)
    }

    /// The count now.
    var value: UInt64 { atomic.pointee.load(ordering: .acquiring) }

    /// Adds one, returning the new count (the count, unchanged, when mapped read-only). Only the holder of
    /// the exclusive lock calls it.
    @discardableResult
    func increment() -> UInt64 {
        guard writable else { return value }
        return atomic.pointee.wrappingAdd(1, ordering: .releasing).newValue
    }
}
