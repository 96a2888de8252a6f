public import Foundation

/// A token that names a position in one store's history: the store, its epoch and a sequence number.
///
/// Every backend defines its own token type conforming to this protocol, so that a model container can
/// combine the tokens of several stores into one `CompositeHistoryToken`.
///
/// # Implementation requirements
///
/// - ``sequence`` is the sequence number of the transaction the token bookmarks. Sequence numbers start at 1
///   and grow by one per transaction in commit order; a token with sequence 0 means "before the first
///   transaction".
/// - ``epoch`` is a random value the store draws when it is created or erased, so a token never matches a
///   different incarnation of the store.
/// - Ordering follows ``sequence`` within one store and epoch; tokens of different stores or epochs are
///   unordered. The default `<` below does this; keep it.
/// - The Codable form is the one ``HistoryTokenCoding`` writes, so every backend's tokens read alike.
public protocol StoreHistoryToken: HistoryToken {
    /// The identifier of the store whose history the token points into.
    var storeIdentifier: String { get }
    /// The store incarnation the token belongs to.
    var epoch: UUID { get }
    /// The sequence number of the bookmarked transaction (0 for "before the first").
    var sequence: Int64 { get }

    /// Creates a token from its parts. Stores and the model container use this; apps decode saved tokens.
    init(storeIdentifier: String, epoch: UUID, sequence: Int64)
}

extension StoreHistoryToken {
    /// Orders by sequence within one store and epoch; tokens of different stores or epochs are unordered.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.storeIdentifier == rhs.storeIdentifier && lhs.epoch == rhs.epoch && lhs.sequence < rhs.sequence
    }

    /// Whether both tokens belong to one store and epoch and `lhs` is not after `rhs`.
    public static func <= (lhs: Self, rhs: Self) -> Bool {
        lhs.storeIdentifier == rhs.storeIdentifier && lhs.epoch == rhs.epoch && lhs.sequence <= rhs.sequence
    }

    /// Whether both tokens belong to one store and epoch and `lhs` is not before `rhs`.
    public static func >= (lhs: Self, rhs: Self) -> Bool {
        rhs <= lhs
    }

    /// Checks that the token belongs to the given store and epoch and points into retained history.
    ///
    /// The check is O(1) and runs before a store reads anything: a token older than `oldestValidSequence`
    /// throws ``DataStoreError/historyTokenExpired(store:tokenSequence:oldestValidSequence:reason:)`` rather than
    /// yielding a silently partial answer.
    ///
    /// - Parameters:
    ///   - storeIdentifier: The store being asked.
    ///   - epoch: The store's current epoch.
    ///   - oldestValidSequence: The smallest sequence a token may have: the last deleted transaction's
    ///     sequence, or 0 when no history was deleted.
    ///   - latestSequence: The sequence of the newest transaction.
    public func validate(
        storeIdentifier: String, epoch: UUID, oldestValidSequence: Int64, latestSequence: Int64
    ) throws(DataStoreError) {
        guard self.storeIdentifier == storeIdentifier else {
            throw .historyTokenFromAnotherStore(store: storeIdentifier, tokenStore: self.storeIdentifier)
        }
        guard self.epoch == epoch else {
            throw .historyTokenExpired(
                store: storeIdentifier, tokenSequence: sequence, oldestValidSequence: oldestValidSequence,
                reason: .storeErasedOrRecreated(tokenEpoch: self.epoch, storeEpoch: epoch))
        }
        guard sequence <= latestSequence else {
            throw .historyTokenBeyondHistory(
                store: storeIdentifier, tokenSequence: sequence, latestSequence: latestSequence)
        }
        guard sequence >= oldestValidSequence else {
            throw .historyTokenExpired(
                store: storeIdentifier, tokenSequence: sequence, oldestValidSequence: oldestValidSequence)
        }
    }
}
