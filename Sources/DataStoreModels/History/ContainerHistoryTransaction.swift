public import DataStoreCore
public import Foundation

/// One transaction in a model container's merged history: what `ModelContext.fetchHistory` returns
/// (SwiftData's `DefaultHistoryTransaction`).
///
/// Its ``token`` is a ``CompositeHistoryToken`` holding, for every store, the furthest position reached in
/// the stream up to and including this transaction; save it and later fetch
/// `#Predicate { $0.token > token }` to resume.
public struct ContainerHistoryTransaction: HistoryTransaction {
    /// When the transaction was committed.
    public var timestamp: Date
    /// The changes, in order, as typed views.
    public var changes: [ModelHistoryChange]
    /// The position in the merged stream after this transaction.
    public var token: CompositeHistoryToken
    /// The transaction's identifier in its store.
    public var transactionIdentifier: Int64
    /// The store that committed it.
    public var storeIdentifier: String
    /// The author of the context that saved.
    public var author: String?
    /// The bundle identifier of the saving program.
    public var bundleIdentifier: String
    /// The process identifier of the saving program.
    public var processIdentifier: String
    /// The store-level sequence of the transaction (its position in its own store's history).
    public var storeSequence: Int64

    /// The seekable key paths, spelled on this type.
    public static let keyPaths = HistoryKeyPaths<ContainerHistoryTransaction>(
        token: \.token, timestamp: \.timestamp, transactionIdentifier: \.transactionIdentifier,
        author: \.author)

    /// Creates a transaction.
    public init(
        timestamp: Date, changes: [ModelHistoryChange], token: CompositeHistoryToken,
        transactionIdentifier: Int64,
        storeIdentifier: String, author: String?, bundleIdentifier: String, processIdentifier: String,
        storeSequence: Int64
    ) {
        self.timestamp = timestamp
        self.changes = changes
        self.token = token
        self.transactionIdentifier = transactionIdentifier
        self.storeIdentifier = storeIdentifier
        self.author = author
        self.bundleIdentifier = bundleIdentifier
        self.processIdentifier = processIdentifier
        self.storeSequence = storeSequence
    }
}
