import Foundation

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Waits for a commit to a store's files: inotify on Linux, plain polling elsewhere.
///
/// `wait(upTo:)` returns as soon as a file whose name `isCommitFile` accepts is written to or renamed into
/// place, or when the interval passes. Nothing else wakes it: not a reader opening and closing files, not a
/// lock file, not a temporary file being written. With inotify, a commit by any process is noticed within
/// milliseconds; without it (other platforms, or when inotify is exhausted), within one interval.
public final class ChangeWatcher {
    /// The longest `wait(upTo:)` waits without a change: the polling fallback's latency, and how quickly a
    /// cancelled feed releases its descriptor.
    public static let defaultInterval: Duration = .milliseconds(250)

    private var descriptor: Int32 = -1
    private let isCommitFile: (String) -> Bool

    /// Whether the watcher uses inotify (otherwise it polls).
    public var isEventDriven: Bool { descriptor >= 0 }

    /// Starts watching `directory` for writes to, and renames onto, the files `isCommitFile` accepts (by
    /// name). Falls back to polling if inotify is unavailable.
    public init(directory: String, isCommitFile: @escaping (String) -> Bool) {
        self.isCommitFile = isCommitFile
        #if os(Linux)
            let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard fd >= 0 else { return }
            // An append is IN_MODIFY; a replacement (compaction, erase, a new segment) is IN_MOVED_TO.
            let mask = UInt32(IN_MODIFY | IN_MOVED_TO)
            guard inotify_add_watch(fd, directory, mask) >= 0 else {
                close(fd)
                return
            }
            descriptor = fd
        #endif
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Waits until a commit file changes or `interval` passes; returns whether a change was seen (always
    /// `true` when polling, since a change cannot be ruled out).
    @discardableResult
    public func wait(upTo interval: Duration = ChangeWatcher.defaultInterval) -> Bool {
        let milliseconds = Int32(
            interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000)
        guard descriptor >= 0 else {
            usleep(useconds_t(milliseconds) * 1000)
            return true
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: interval)
        while true {
            let left = clock.now.duration(to: deadline)
            let leftMilliseconds = Int32(
                max(0, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            var pollDescriptor = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&pollDescriptor, 1, leftMilliseconds) > 0 else { return false }
            if drainEvents() { return true }
        }
    }

    /// Reads the queued events; whether one of them names a commit file.
    private func drainEvents() -> Bool {
        var seen = false
        #if os(Linux)
            var buffer = [UInt8](repeating: 0, count: 8192)
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                guard count > 0 else { break }
                if buffer.withUnsafeBytes({
                    Self.eventsNameACommit(
                        UnsafeRawBufferPointer(rebasing: $0[..<count]), isCommitFile: isCommitFile)
                }) {
                    seen = true
                }
            }
        #endif
        return seen
    }

    #if os(Linux)
        /// Whether the inotify events in `bytes` name a commit file, or say that the queue overflowed (events
        /// were dropped, so a commit cannot be ruled out).
        package static func eventsNameACommit(
            _ bytes: UnsafeRawBufferPointer, isCommitFile: (String) -> Bool
        ) -> Bool {
            var seen = false
            var offset = 0
            let headerSize = MemoryLayout<inotify_event>.size
            while offset + headerSize <= bytes.count {
                let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                // The kernel's queue overflowed and dropped events: a commit may be among them.
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 { seen = true }
                let nameLength = Int(event.len)
                let nameBytes = bytes[
                    (offset + headerSize)..<min(bytes.count, offset + headerSize + nameLength)]
                let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                if !name.isEmpty && isCommitFile(name) { seen = true }
                offset += headerSize + nameLength
            }
            return seen
        }
    #endif
}
