import Foundation
import Synchronization
import Testing

@testable import DataStoreKit

/// `ParallelChunks.both`: both results, the two run at once or one after the other as asked (a checkpoint runs
/// them one after the other when it may take only one thread beside the app's).
@Suite struct ParallelBothTests {
    /// The first is slow: run at the same time, the second would finish first.
    @Test func oneAfterTheOtherRunsTheFirstThenTheSecond() {
        let ran = Mutex<[String]>([])
        let (first, second) = ParallelChunks.both(
            {
                Thread.sleep(forTimeInterval: 0.05)
                ran.withLock { $0.append("first") }
                return 1
            },
            { () -> String in
                ran.withLock { $0.append("second") }
                return "two"
            }, concurrently: false)
        #expect(first == 1 && second == "two")
        #expect(ran.withLock { $0 } == ["first", "second"])
    }

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
