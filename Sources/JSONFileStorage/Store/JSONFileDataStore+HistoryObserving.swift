public import DataStoreCore
import Foundation
import StoreFileSupport

extension JSONFileDataStore: HistoryObserving {
    /// The transactions after `token`, then each new one as any process commits it.
    ///
    /// On Linux the store's directory is watched with inotify, so a commit by another process arrives within
    /// milliseconds; elsewhere the directory is polled every 250 ms. Cancelling the consuming task stops the
    /// watch and closes its descriptor within 250 ms.
    public func historyUpdates(after token: JSONFileHistoryToken?) -> AsyncThrowingStream<
        JSONFileHistoryTransaction, any Error
    > {
        // Commits append to the journal or replace it; nothing else in the directory means a commit.
        HistoryFeed.stream(
            of: self, watching: files.path, commitFiles: { $0 == "journal.jsonl" }, after: token)
    }
}
