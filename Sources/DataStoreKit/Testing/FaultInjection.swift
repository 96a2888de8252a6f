@_spi(DataStoreInternals) import DataStoreCore
package import Foundation
import Synchronization

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Makes the file layer's system calls fail on demand, so tests can show what a store does when a disk fills
/// up, an fsync fails or a cut-back fails. Test support only: `package`, never part of the public API, and
/// compiled only into debug builds (the ones `swift test` makes): in a release build ``shouldFail(_:path:)``
/// is `false` and the file layer pays nothing. In a debug build with no fault installed, it costs one atomic
/// load.
///
/// A fault names an operation and a path fragment (a test's temporary directory keeps its faults from
/// touching other tests that run in parallel); the next `count` matching calls fail with `errno`.
package enum FaultInjection {
    /// The operations that can be made to fail.
    package enum Operation: Sendable, Hashable {
        case write, synchronize, truncate, rename
    }

    struct Fault: Sendable {
        var operation: Operation
        var pathFragment: String
        var errorNumber: Int32
        var remaining: Int
        /// Calls that succeed before the fault starts.
        var skipping = 0
        /// Instead of failing, run this on the calling thread before the call goes ahead (see `intercept`).
        var action: (@Sendable () -> Void)?
    }

    static let faults = Lock<[Fault]>([])
    /// How many faults are installed: when none is, a file operation does not take the lock.
    static let installed = Atomic<Int>(0)

    /// Makes the next `count` calls of `operation` on a path containing `pathFragment` fail with `errorNumber`,
    /// after `skipping` calls that succeed.
    package static func inject(
        _ operation: Operation, pathContaining pathFragment: String, errno errorNumber: Int32 = EIO,
        count: Int = .max, skipping: Int = 0
    ) {
        faults.withLock {
            $0.append(
                Fault(
                    operation: operation, pathFragment: pathFragment, errorNumber: errorNumber,
                    remaining: count, skipping: skipping))
            installed.store($0.count, ordering: .releasing)
        }
    }

    /// Runs `action` on the calling thread before each of the next `count` calls of `operation` on a path
    /// containing `pathFragment`, which then go ahead: so a test can act while a store is in the middle of
    /// a write (say, fetch while a checkpoint renames its snapshot).
    package static func intercept(
        _ operation: Operation, pathContaining pathFragment: String, count: Int = 1,
        _ action: @escaping @Sendable () -> Void
    ) {
        faults.withLock {
            $0.append(
                Fault(
                    operation: operation, pathFragment: pathFragment, errorNumber: 0, remaining: count,
                    action: action))
            installed.store($0.count, ordering: .releasing)
        }
    }

    /// Removes every fault whose fragment is `pathFragment`.
    package static func clear(pathContaining pathFragment: String) {
        faults.withLock {
            $0.removeAll { $0.pathFragment == pathFragment }
            installed.store($0.count, ordering: .releasing)
        }
    }

    /// Whether a call of `operation` on `path` must fail; sets `errno` when it must. Always `false` in a
    /// release build.
    @inline(__always)
    static func shouldFail(_ operation: Operation, path: String) -> Bool {
        #if DEBUG
            guard installed.load(ordering: .acquiring) > 0 else { return false }
            return matchFault(operation, path: path)
        #else
            return false
        #endif
    }

    /// Finds, counts and applies the first installed fault that matches.
    private static func matchFault(_ operation: Operation, path: String) -> Bool {
        let (errorNumber, action) = faults.withLock { faults -> (Int32?, (@Sendable () -> Void)?) in
            guard
                let position = faults.firstIndex(where: {
                    $0.operation == operation && $0.remaining > 0 && path.contains($0.pathFragment)
                })
            else { return (nil, nil) }
            if faults[position].skipping > 0 {
                faults[position].skipping -= 1
                return (nil, nil)
            }
            faults[position].remaining -= 1
            if let action = faults[position].action { return (nil, action) }
            return (faults[position].errorNumber, nil)
        }
        // Outside the lock: the action may itself do file operations.
        action?()
        guard let errorNumber else { return false }
        errno = errorNumber
        return true
    }

    /// The recordings under way, with the path fragment each records.
    static let recordings = Lock<[(fragment: String, recording: IORecording)]>([])
    static let recordingCount = Atomic<Int>(0)

    /// Records every file operation on a path containing `pathFragment` into `recording`, until
    /// ``stopRecording(_:)``: the power-loss harness's view of a workload's I/O.
    package static func record(pathContaining pathFragment: String, into recording: IORecording) {
        recordings.withLock {
            $0.append((pathFragment, recording))
            recordingCount.store($0.count, ordering: .releasing)
        }
    }

    /// Stops `recording`.
    package static func stopRecording(_ recording: IORecording) {
        recordings.withLock {
            $0.removeAll { $0.recording === recording }
            recordingCount.store($0.count, ordering: .releasing)
        }
    }

    /// Notes a file operation that succeeded, for the recordings whose fragment `path` contains. Nothing in a
    /// release build; one atomic load in a debug build with no recording.
    @inline(__always)
    static func note(_ event: @autoclosure () -> IOEvent, path: String) {
        #if DEBUG
            guard recordingCount.load(ordering: .acquiring) > 0 else { return }
            let matching = recordings.withLock { $0.filter { path.contains($0.fragment) }.map(\.recording) }
            guard !matching.isEmpty else { return }
            let event = event()
            for recording in matching { recording.append(event) }
        #endif
    }
}

/// A file operation that reached the kernel, as the power-loss harness sees it.
package enum IOEvent: Sendable, Equatable {
    /// `bytes` written at `offset` (not yet durable).
    case write(path: String, offset: Int64, bytes: Data)
    /// The file cut or extended to `length` (not yet durable).
    case truncate(path: String, length: Int64)
    /// `fdatasync`/`fsync` of a file, or of a directory (which makes its entries' changes durable).
    case synchronize(path: String)
    /// A rename (durable once its directory is synchronized).
    case rename(from: String, to: String)
    /// An unlink (durable once its directory is synchronized).
    case unlink(path: String)
    /// A mark the workload makes (a save acknowledged), between the operations around it.
    case note(String)
}

/// The operations of one recording, in the order they happened.
package final class IORecording: Sendable {
    private let recorded = Lock<[IOEvent]>([])

    package init() {}

    /// Everything recorded so far.
    package var events: [IOEvent] { recorded.withLock { $0 } }

    /// Adds an event (the workload's own marks too).
    package func append(_ event: IOEvent) {
        recorded.withLock { $0.append(event) }
    }
}
