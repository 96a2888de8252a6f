public import Foundation
import Synchronization

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Version 4 UUIDs, and random bits, for identifiers made on hot paths: a new model's primary key (every model
/// made outside a fetch draws one) and the editing state of a request made without a context (every such fetch
/// draws one).
///
/// They must be unique, not secret: nothing uses them to authorise anything. So they come from a fast generator
/// (xoshiro256**) seeded from the system's random source, instead of two system calls per UUID
/// (`SystemRandomNumberGenerator` reads `getrandom` each time: about 0.7 µs, against Foundation's `UUID()` at
/// 2.2 µs, which reads `/dev/urandom`). A child process made by `fork` reseeds, so that parent and child never
/// draw the same sequence.
@usableFromInline
enum RandomUUID {
    /// A new version 4 UUID.
    @usableFromInline
    static func make() -> UUID {
        var bytes = bits()
        return withUnsafeMutableBytes(of: &bytes) { buffer in
            buffer[6] = (buffer[6] & 0x0F) | 0x40  // version 4
            buffer[8] = (buffer[8] & 0x3F) | 0x80  // RFC 4122 variant
            return UUID(uuid: UnsafeRawBufferPointer(buffer).loadUnaligned(as: uuid_t.self))
        }
    }

    /// 128 bits from the same generator: for random primary keys (see `PersistentIdentifier`).
    static func bits() -> (UInt64, UInt64) {
        generator.withLock { generator in
            if generator.forkGeneration != forks.load(ordering: .relaxed) { generator = SeededGenerator() }
            return (generator.next(), generator.next())
        }
    }

    private static let generator = Lock(SeededGenerator())

    /// How many times this process was forked into the one running (counted in the child).
    fileprivate static let forks: Atomic<Int> = {
        pthread_atfork(nil, nil) { RandomUUID.forks.add(1, ordering: .relaxed) }
        return Atomic(0)
    }()
}

/// xoshiro256** (Blackman and Vigna), seeded with 256 bits from the system's random source.
private struct SeededGenerator: RandomNumberGenerator {
    private var state: (UInt64, UInt64, UInt64, UInt64)
    /// The fork count when seeded: a different count means this process is a child of the one that seeded it.
    let forkGeneration: Int

    init() {
        forkGeneration = RandomUUID.forks.load(ordering: .relaxed)
        var system = SystemRandomNumberGenerator()
        repeat {
            state = (system.next(), system.next(), system.next(), system.next())
        } while state == (0, 0, 0, 0)  // the one state the generator never leaves
    }

    mutating func next() -> UInt64 {
        let result = (state.1 &* 5).rotatedLeft(by: 7) &* 9
        let shifted = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= shifted
        state.3 = state.3.rotatedLeft(by: 45)
        return result
    }
}

extension UInt64 {
    fileprivate func rotatedLeft(by count: UInt64) -> UInt64 {
        (self << count) | (self >> (64 - count))
    }
}
