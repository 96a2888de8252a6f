public import DataStoreCore
public import Foundation

/// One `save` of a ``JSONFileDataStore``, committed as one journal record.
public struct JSONFileHistoryTransaction: HistoryTransaction, Hashable {
    /// The seekable key paths, spelled on this type.
    public static let keyPaths = HistoryKeyPaths<JSONFileHistoryTransaction>(
        token: \.token, timestamp: \.timestamp, transactionIdentifier: \.transactionIdentifier,
        author: \.author)

    /// When the save committed; never earlier than the previous transaction's, across all processes.
    public var timestamp: Date
    /// The changes, one per model instance.
    public var changes: [JSONFileHistoryChange]
    /// The token bookmarking this transaction.
    public var token: JSONFileHistoryToken
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
        timestamp: Date, changes: [JSONFileHistoryChange], token: JSONFileHistoryToken, author: String?,
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
