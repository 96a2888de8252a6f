public import Foundation

/// A position in one store's history: the store, its epoch and a sequence. One type serves every backend,
/// told apart by `Kind`; backends name it through a type alias (`JSONFileHistoryToken`, …).
public struct GenericHistoryToken<Kind: HistoryTokenKind>: StoreHistoryToken, CustomStringConvertible {
    /// The store the token points into.
    public var storeIdentifier: String
    /// The store incarnation.
    public var epoch: UUID
    /// The sequence of the bookmarked transaction (0 for "before the first").
    public var sequence: Int64

    /// Creates a token.
    public init(storeIdentifier: String, epoch: UUID, sequence: Int64) {
        self.storeIdentifier = storeIdentifier
        self.epoch = epoch
        self.sequence = sequence
    }

    /// `jsonfile:trips@42`, for messages.
    public var description: String { "\(Kind.name):\(storeIdentifier)@\(sequence)" }
}
