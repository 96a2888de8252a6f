public import DataStoreCore
public import Foundation

/// A position in a ``TimeSeriesDataStore``'s history: store identifier, epoch and commit sequence.
public struct TimeSeriesHistoryToken: StoreHistoryToken, CustomStringConvertible {
    /// The store the token points into.
    public var storeIdentifier: String
    /// The store incarnation, recorded in the store's index.
    public var epoch: UUID
    /// The commit sequence of the bookmarked transaction.
    public var sequence: Int64

    /// Creates a token.
    public init(storeIdentifier: String, epoch: UUID, sequence: Int64) {
        self.storeIdentifier = storeIdentifier
        self.epoch = epoch
        self.sequence = sequence
    }

    /// `timeseries:sensors@42`, for messages.
    public var description: String { "timeseries:\(storeIdentifier)@\(sequence)" }
}
