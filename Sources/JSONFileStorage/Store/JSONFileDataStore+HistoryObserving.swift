public import DataStoreCore
import Foundation
import StoreFileSupport
import Synchronization

extension JSONFileDataStore: HistoryObserving {
    /// The transactions after `token`, then each new one as any process commits it.
    ///
    /// On Linux the store's directory is watched with inotify, so a commit by another process arrives within
    /// milliseconds; elsewhere the directory is polled every 250 ms. Cancelling the consuming task stops the
    /// watch and closes its descriptor within 250 ms.
    public func historyUpdates(after token: JSONFileHistoryToken?) -> AsyncThrowingStream<
        JSONFileHistoryTransaction, any Error
    > {
        let cursor = FeedCursor(token)
        return HistoryFeed.stream(watching: files.path) { [self] in
            var descriptor = HistoryDescriptor<JSONFileHistoryTransaction>()
            if let after = cursor.token { descriptor.predicate = HistoryPredicates.after(after) }
            let new = try fetchHistory(descriptor)
            if let last = new.last { cursor.token = last.token }
            return new
        }
    }
}

/// The last token a feed delivered.
private final class FeedCursor: Sendable {
    private let value: Mutex<JSONFileHistoryToken?>
    init(_ token: JSONFileHistoryToken?) { value = Mutex(token) }
    var token: JSONFileHistoryToken? {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
