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
/// `wait(upTo:orUntil:)` returns as soon as a file whose name `isCommitFile` accepts is written to or renamed
/// into place, or when its feed is cancelled; with inotify it needs no timer, so an idle watch does no work.
/// Nothing else wakes it: not a reader opening and closing files, not a lock file, not a temporary file being
/// written. With inotify, a commit by any process is noticed within
/// milliseconds; without it (other platforms, or when inotify is exhausted), within one interval.
public final class ChangeWatcher {
    /// How long the polling fallback waits between looks: its latency.
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
        wait(upTo: interval, orUntil: Self.neverCancelled)
    }

    /// A cancellation nobody sets, for waits that only a change or their interval ends.
    private static let neverCancelled = FeedCancellation()

    /// Waits until a commit file changes, `cancellation` is set, or `limit` passes (`nil`: no limit while
    /// inotify works; one ``defaultInterval`` when polling). Returns whether a change may have happened: with
    /// inotify, only when one did; when polling, after every interval that was not cut short by cancellation.
    public func wait(upTo limit: Duration?, orUntil cancellation: FeedCancellation) -> Bool {
        guard descriptor >= 0 else {
            // Polling: one interval, cut short by cancellation.
            return cancellation.sleep(for: limit ?? Self.defaultInterval)
        }
        let clock = ContinuousClock()
        let deadline = limit.map { clock.now.advanced(by: $0) }
        while !cancellation.isCancelled {
            let left = deadline.map { max(.zero, clock.now.duration(to: $0)) }
            var descriptors = [
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: cancellation.descriptor, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, cancellation.pollTimeout(upTo: left))
            if ready > 0, descriptors[0].revents != 0, drainEvents() { return true }
            if let deadline, clock.now >= deadline { return false }
        }
        return false
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
