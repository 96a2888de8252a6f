import Foundation

/// Work split into chunks that run on all cores at once, with the results in chunk order: how the stores
/// encode a large save's records and a checkpoint's rows, and check and encode a large time-series save.
///
/// A chunk's work must not depend on another's, and must not throw (return a `Result` instead): the caller
/// decides what a failure in one chunk means for the whole.
package enum ParallelChunks {
    /// The cores this process may run on, read once: on Linux, Foundation reads the cgroup's CPU quota from
    /// files to answer, which a save of ten changes must not pay for.
    package static let cores = ProcessInfo.processInfo.activeProcessorCount

    /// `body(chunk)` for every chunk in `0..<count`, run concurrently (on the calling thread alone when there
    /// is one chunk), returned in chunk order.
    package static func map<Value: Sendable>(_ count: Int, _ body: @Sendable (Int) -> Value) -> [Value] {
        guard count > 1 else { return count == 1 ? [body(0)] : [] }
        let slots = Slots<Value>(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { chunk in
            slots.base.advanced(by: chunk).initialize(to: body(chunk))
        }
        return slots.moveOut()
    }

    /// `first()` on another thread while `second()` runs on this one, and both results once both are done:
    /// how a checkpoint writes its history segment (input and output) while it encodes the snapshot. Neither
    /// may throw: return a `Result`, so that the caller has both outcomes whichever failed.
    package static func both<First: Sendable, Second>(
        _ first: @escaping @Sendable () -> First, _ second: () -> Second
    ) -> (First, Second) {
        let done = DispatchGroup()
        let result = Slots<First>(count: 1)
        DispatchQueue.global().async(group: done) { result.base.initialize(to: first()) }
        let secondResult = second()
        done.wait()
        return (result.moveOut()[0], secondResult)
    }

    /// Slots each chunk initialises its own of: no two threads touch one, and the caller reads them all only
    /// after every chunk is done.
    private final class Slots<Value>: @unchecked Sendable {
        let base: UnsafeMutablePointer<Value>
        let count: Int

        init(count: Int) {
            self.count = count
            base = .allocate(capacity: count)
        }

        /// The values, moved out of the slots (which are then empty): called once, after every chunk ran.
        func moveOut() -> [Value] {
            var values: [Value] = []
            values.reserveCapacity(count)
            for chunk in 0..<count { values.append(base.advanced(by: chunk).move()) }
            return values
        }

        deinit {
            base.deallocate()
        }
    }

    /// `indices` split into about equal ranges, each at least `minimumChunkLength` long, one a core at most:
    /// the whole, as one range, when it is too short to share.
    package static func ranges(
        of indices: Range<Int>, minimumChunkLength: Int, cores: Int = ParallelChunks.cores
    ) -> [Range<Int>] {
        let count = max(1, min(cores, indices.count / max(1, minimumChunkLength)))
        guard count > 1 else { return [indices] }
        return (0..<count).map { chunk in
            (indices.lowerBound + indices.count * chunk / count)..<(indices.lowerBound + indices.count
                * (chunk + 1) / count)
        }
    }
}
