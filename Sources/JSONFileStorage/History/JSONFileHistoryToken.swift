public import DataStoreCore
public import Foundation

/// A position in a ``JSONFileDataStore``'s history: store identifier, epoch and sequence.
///
/// The epoch is recorded in the store's journal header when the store is created or erased, so it is the
/// same in every process that opens the store, and different after `erase()`.
public struct JSONFileHistoryToken: StoreHistoryToken, CustomStringConvertible {
    /// The store the token points into.
    public var storeIdentifier: String
    /// The store incarnation.
    public var epoch: UUID
    /// The sequence of the bookmarked transaction.
    public var sequence: Int64

    /// Creates a token.
    public init(storeIdentifier: String, epoch: UUID, sequence: Int64) {
        self.storeIdentifier = storeIdentifier
        self.epoch = epoch
        self.sequence = sequence
    }

    /// `jsonfile:trips@42`, for messages.
    public var description: String { "jsonfile:\(storeIdentifier)@\(sequence)" }
}
