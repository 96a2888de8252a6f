public import Foundation

/// Why a history token expired: the precise reason behind ``DataStoreError/historyTokenExpired(store:tokenSequence:oldestValidSequence:reason:)``.
///
/// Every stale token throws `historyTokenExpired`, so the seeds' recovery — catch it, drop the token, fetch
/// from the beginning — works whatever made the token stale. Match on the reason when it matters.
public enum HistoryTokenExpiry: Hashable, Sendable {
    /// The history the token points into was deleted (`deleteHistory`, a retention policy).
    case historyDeleted
    /// The store was erased or recreated since the token was issued: the token belongs to an earlier
    /// incarnation (epoch) of the store, and its positions mean nothing in the new one.
    case storeErasedOrRecreated(tokenEpoch: UUID, storeEpoch: UUID)
}
