public import DataStoreCore
public import Foundation

/// One commit of a ``TimeSeriesDataStore``: one save, or every save of one commit window.
public struct TimeSeriesHistoryTransaction: HistoryTransaction, Hashable {
    /// The seekable key paths, spelled on this type.
    public static let keyPaths = HistoryKeyPaths<TimeSeriesHistoryTransaction>(
        token: \.token, timestamp: \.timestamp, transactionIdentifier: \.transactionIdentifier,
        author: \.author)

    /// The commit time (not the samples' times), never earlier than the previous commit's.
    public var timestamp: Date
    /// The samples, one insert each.
    public var changes: [TimeSeriesHistoryChange]
    /// The token bookmarking this transaction.
    public var token: TimeSeriesHistoryToken
    /// Equal to the token's sequence.
    public var transactionIdentifier: Int64
    /// The store's identifier.
    public var storeIdentifier: String
    /// The saving context's author.
    public var author: String?
    /// The saving program's bundle identifier.
    public var bundleIdentifier: String
    /// The saving process's identifier.
    public var processIdentifier: String

    /// Creates a transaction.
    public init(
        timestamp: Date, changes: [TimeSeriesHistoryChange], token: TimeSeriesHistoryToken, author: String?,
        bundleIdentifier: String, processIdentifier: String
    ) {
        self.timestamp = timestamp
        self.changes = changes
        self.token = token
        self.transactionIdentifier = token.sequence
        self.storeIdentifier = token.storeIdentifier
        self.author = author
        self.bundleIdentifier = bundleIdentifier
        self.processIdentifier = processIdentifier
    }
}
