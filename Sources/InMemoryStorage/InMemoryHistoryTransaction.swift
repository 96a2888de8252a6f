public import DataStoreCore
public import Foundation

/// One `save` of an ``InMemoryDataStore``: its changes and the metadata of who saved.
public struct InMemoryHistoryTransaction: HistoryTransaction, Hashable {
    /// When the save committed; never earlier than the previous transaction's timestamp.
    public var timestamp: Date
    /// The changes, one per model instance.
    public var changes: [InMemoryHistoryChange]
    /// The token bookmarking this transaction.
    public var token: InMemoryHistoryToken
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

    /// The seekable key paths, spelled on this type.
    public static let keyPaths = HistoryKeyPaths<InMemoryHistoryTransaction>(
        token: \.token, timestamp: \.timestamp, transactionIdentifier: \.transactionIdentifier,
        author: \.author)

    /// Creates a transaction.
    public init(
        timestamp: Date, changes: [InMemoryHistoryChange], token: InMemoryHistoryToken, author: String?,
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
