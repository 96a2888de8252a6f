import Foundation

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Waits for files in a directory to change: inotify on Linux, plain polling elsewhere.
///
/// `wait(upTo:)` returns as soon as a file in the directory is written, created, renamed into place or
/// removed, or when the interval passes. With inotify, a commit by any process is noticed within
/// milliseconds; without it (other platforms, or when inotify is exhausted), within one interval.
public final class ChangeWatcher {
    /// The longest `wait(upTo:)` waits without a change: the polling fallback's latency, and how quickly a
    /// cancelled feed releases its descriptor.
    public static let defaultInterval: Duration = .milliseconds(250)

    private var descriptor: Int32 = -1

    /// Whether the watcher uses inotify (otherwise it polls).
    public var isEventDriven: Bool { descriptor >= 0 }

    /// Starts watching `directory`. Falls back to polling if inotify is unavailable.
    public init(directory: String) {
        #if os(Linux)
            let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard fd >= 0 else { return }
            let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE)
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

    /// Waits until something in the directory changes or `interval` passes; returns whether a change was seen
    /// (always `true` when polling, since a change cannot be ruled out).
    @discardableResult
    public func wait(upTo interval: Duration = ChangeWatcher.defaultInterval) -> Bool {
        let milliseconds = Int32(
            interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000)
        guard descriptor >= 0 else {
            usleep(useconds_t(milliseconds) * 1000)
            return true
        }
        var pollDescriptor = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pollDescriptor, 1, milliseconds)
        guard ready > 0 else { return false }
        // Drain the queued events; which file changed does not matter, the store checks its own.
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(descriptor, &buffer, buffer.count) > 0 {}
        return true
    }
}
