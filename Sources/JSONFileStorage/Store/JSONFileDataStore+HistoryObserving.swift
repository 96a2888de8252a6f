public import DataStoreCore
import DataStoreKit
import Foundation

extension JSONFileDataStore: HistoryObserving {
    /// The transactions after `token`, then each new one as any process commits it.
    ///
    /// On Linux the store's directory is watched with inotify, so a commit by another process arrives within
    /// milliseconds and an idle sequence sleeps; elsewhere the directory is polled every 250 ms. Cancelling
    /// the consuming task stops the watch and closes its descriptor.
    public func historyUpdates(after token: JSONFileHistoryToken?) -> AsyncThrowingStream<
        JSONFileHistoryTransaction, any Error
    > {
        // Commits append to the journal or replace it; nothing else in the directory means a commit. A wake
        // comes with the writer's first byte, before it releases the lock and counts its change, so each fetch
        // reads the files (waiting for the writer) instead of trusting the count.
        HistoryFeed.stream(
            watching: files.path, commitFiles: { $0 == "journal.jsonl" }, after: token,
            fetch: { after, limit in
                try self.fetchHistory(
                    HistoryDescriptor(
                        predicate: after.map { HistoryPredicates.after($0) }, fetchLimit: limit),
                    readingFiles: true)
            },
            tokenOf: { $0.token })
    }

    /// Yields when a process may have committed: the same directory watch as ``historyUpdates(after:)``
    /// (inotify on Linux, 250 ms polling elsewhere), without reading any history.
    ///
    /// The watch wakes at the writer's first byte, before it counts its commit in the lock file; so before
    /// signalling, the signal's thread catches this instance up under the shared lock (waiting for the writer).
    /// A plain fetch after the signal then finds the commit.
    public func commitSignals() -> AsyncStream<Void> {
        let directory = files.path
        return HistoryFeed.signals(
            label: directory,
            waker: { ChangeWatcher(directory: directory, isCommitFile: { $0 == "journal.jsonl" }) },
            settle: { try self.readFromFiles { _ in () } })
    }
}
