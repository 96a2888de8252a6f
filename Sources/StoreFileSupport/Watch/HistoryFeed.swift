import Foundation
import Synchronization

/// Turns "fetch what is new" into an `AsyncThrowingStream` that follows commits from any process: the shared
/// engine behind the file stores' `historyUpdates(after:)`.
///
/// A background thread watches the store's directory with ``ChangeWatcher``. The watch starts before the
/// first fetch, so a commit is either in that fetch's backlog or wakes the thread afterwards: no gap. Each
/// wake calls `fetchNew`, which returns what came after the last transaction it returned: no duplicates.
/// Cancelling the consuming task ends the thread within one watcher interval and closes its descriptor.
public enum HistoryFeed {
    /// A stream of what `fetchNew` returns, called once at once and again after every change in `directory`.
    ///
    /// - Parameter fetchNew: Returns the transactions after those it returned before (the backlog on its first
    ///   call). Throwing ends the stream with that error.
    public static func stream<Element: Sendable>(
        watching directory: String, fetchNew: @escaping @Sendable () throws -> [Element]
    ) -> AsyncThrowingStream<Element, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream()
        let cancelled = CancellationFlag()
        continuation.onTermination = { _ in cancelled.set() }
        let thread = Thread {
            let watcher = ChangeWatcher(directory: directory)
            do {
                while !cancelled.isSet {
                    for element in try fetchNew() {
                        continuation.yield(element)
                    }
                    watcher.wait()
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        thread.name = "HistoryFeed \(directory)"
        thread.start()
        return stream
    }
}

/// A flag one side sets and another polls.
final class CancellationFlag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
