/// A store that announces new history as it is committed: the counterpart of Core Data's
/// `NSPersistentStoreRemoteChange`, as an async sequence.
///
/// ```swift
/// for try await transaction in store.historyUpdates(after: savedToken) {
///     handle(transaction)
///     savedToken = transaction.token
/// }
/// ```
///
/// # Implementation requirements
///
/// - The sequence first yields every retained transaction after `token` (all of them when `nil`), then each
///   new transaction as it commits, in commit order, each exactly once, with no gap between the two parts.
/// - A token that `fetchHistory` would reject (expired, another store or epoch) ends the sequence with that
///   error.
/// - Cancelling the consuming task ends the sequence and releases what it holds (observers, file
///   descriptors).
public protocol HistoryObserving: HistoryProviding {
    /// The transactions after `token`, then every new one as it commits.
    func historyUpdates(after token: HistoryType.Token?) -> AsyncThrowingStream<HistoryType, any Error>
}
