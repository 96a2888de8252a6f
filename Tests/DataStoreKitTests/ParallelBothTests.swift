import Foundation
import Testing

@testable import DataStoreKit

/// `ParallelChunks.both`: both results, the two run at once (a checkpoint synchronises its new history segment
/// on one thread while it encodes the snapshot on the other).
@Suite struct ParallelBothTests {
    /// The first waits for a signal only the second gives: it gets it only if the two run at the same time.
    @Test func concurrentlyRunsBothAtOnce() {
        let signal = DispatchSemaphore(value: 0)
        let (signalled, second) = ParallelChunks.both(
            { signal.wait(timeout: .now() + 10) == .success },
            { () -> String in
                signal.signal()
                return "two"
            })
        #expect(signalled && second == "two")
    }
}
