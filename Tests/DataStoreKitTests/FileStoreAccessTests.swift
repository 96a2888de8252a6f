@_spi(DataStoreInternals) import DataStoreCore
import Dispatch
import Foundation
import Synchronization
import Testing

@_spi(DataStoreInternals) @testable import DataStoreKit

/// The locking scaffold with the lock file's change count: what readers of one instance see while its writer
/// waits for the disk, and after.
@Suite struct FileStoreAccessTests {
    @Test func aReaderOfTheInstanceGoesOnFromMemoryWhileItsWriterWaitsForTheDisk() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "access-\(UUID().uuidString)"
        )
        .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let access = try FileStoreAccess(0, lockPath: path, readOnly: false, busyTimeout: .seconds(5))
        let refreshes = Lock(0)
        // Only the change count says whether the state is current, as for a JSON journal of format 3.
        func read() throws -> Int {
            try access.read(
                isCurrent: { _, unchanged in unchanged }, refresh: { _ in refreshes.withLock { $0 += 1 } },
                { $0 })
        }
        #expect(try read() == 0)  // the first read refreshes and records the count
        let settled = refreshes.withLock { $0 }

        let inPerform = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let written = DispatchSemaphore(value: 0)
        let writer = Thread {
            _ = try? access.write(
                refresh: { _ in }, prepare: { _ in },
                perform: { _ in
                    inPerform.signal()
                    // Bounded: a reader that waits for this writer is let through after 5 s, and fails below.
                    _ = release.wait(timeout: .now() + 5)
                },
                finish: { state, _, _ in state += 1 })
            written.signal()
        }
        writer.start()
        inPerform.wait()
        // The writer holds the exclusive lock and waits in `perform`: the reader answers at once, from the
        // state before the write, without refreshing.
        #expect(try read() == 0)
        #expect(refreshes.withLock { $0 } == settled)
        release.signal()
        written.wait()
        // The write counted its change on release, and the instance's state already holds it.
        #expect(try read() == 1)
        #expect(refreshes.withLock { $0 } == settled)
    }
}
