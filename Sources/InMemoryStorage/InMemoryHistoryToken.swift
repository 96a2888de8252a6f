public import DataStoreCore
public import Foundation

/// A position in an ``InMemoryDataStore``'s history: store identifier, epoch and sequence.
public struct InMemoryHistoryToken: StoreHistoryToken, CustomStringConvertible {
    /// The store the token points into.
    public var storeIdentifier: String
    /// The store incarnation; a new one is drawn on every open and `erase()`.
    public var epoch: UUID
    /// The sequence of the bookmarked transaction.
    public var sequence: Int64

    /// Creates a token.
    public init(storeIdentifier: String, epoch: UUID, sequence: Int64) {
        self.storeIdentifier = storeIdentifier
        self.epoch = epoch
        self.sequence = sequence
    }

    /// `memory:trips@42`, for messages.
    public var description: String { "memory:\(storeIdentifier)@\(sequence)" }
}
