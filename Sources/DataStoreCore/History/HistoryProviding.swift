/// A store that records its saves as history and can fetch and delete it.
///
/// # Implementation requirements
///
/// - Every `save` that changes anything records exactly one transaction (or, for stores that document
///   commit windows, one per window), visible whole or not at all.
/// - `fetchHistory` returns the transactions that match the descriptor's predicate, in commit order unless
///   `sortBy` says otherwise, then applies `fetchLimit`.
/// - A token bound in the predicate is validated before anything is read, with
///   ``StoreHistoryToken/validate(storeIdentifier:epoch:oldestValidSequence:latestSequence:)``: a token of
///   another store or epoch, an expired token and a token ahead of history each throw their own error.
/// - A token bound is used to seek (binary search or an index), not to scan; a scan costs 15 times a
///   closure per transaction.
/// - A predicate that throws surfaces as ``DataStoreError/predicateEvaluationFailed(store:reason:)``.
/// - `deleteHistory` deletes the matching transactions. Every token older than the newest deleted
///   transaction expires from then on.
public protocol HistoryProviding<HistoryType>: AnyObject, Sendable {
    /// The store's transaction type.
    associatedtype HistoryType: HistoryTransaction

    /// Fetches the transactions the descriptor selects.
    func fetchHistory(_ descriptor: HistoryDescriptor<HistoryType>) throws -> [HistoryType]

    /// Deletes the transactions the descriptor selects; tokens before the newest of them expire.
    func deleteHistory(_ descriptor: HistoryDescriptor<HistoryType>) throws
}
