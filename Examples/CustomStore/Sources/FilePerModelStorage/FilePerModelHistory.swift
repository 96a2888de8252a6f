public import DataStoreCore
public import Foundation

// The three history types a backend defines. Each is small: the protocols say what they must hold.

/// A position in a ``FilePerModelDataStore``'s history.
public struct FilePerModelHistoryToken: StoreHistoryToken {
    /// The store.
    public var storeIdentifier: String
    /// The incarnation, drawn when the directory is created or erased.
    public var epoch: UUID
    /// The transaction's sequence.
    public var sequence: Int64

    /// Creates a token.
    public init(storeIdentifier: String, epoch: UUID, sequence: Int64) {
        self.storeIdentifier = storeIdentifier
        self.epoch = epoch
        self.sequence = sequence
    }

    /// The shared token JSON, with kind `filepermodel`.
    public func encode(to encoder: any Encoder) throws {
        try HistoryTokenCoding.encode(self, kind: "filepermodel", to: encoder)
    }

    /// Decodes the shared token JSON; anything else throws `malformedHistoryToken`.
    public init(from decoder: any Decoder) throws {
        self = try HistoryTokenCoding.decode(Self.self, kind: "filepermodel", from: decoder)
    }
}

/// One change: the insert, update or delete of one model. Codable, because history is kept as JSON lines.
public struct FilePerModelHistoryChange: HistoryChange, Hashable, Codable {
    /// The changed model.
    public var changedPersistentIdentifier: PersistentIdentifier
    /// The store-wide change number.
    public var changeIdentifier: Int64
    /// The transaction's sequence.
    public var transactionIdentifier: Int64
    /// Insert, update or delete.
    public var kind: HistoryChangeKind
    /// For an update, the changed attributes.
    public var updatedAttributes: [String]
    /// For a delete, the preserved values.
    public var tombstone: [String: SnapshotValue]?
}

/// One save. Codable, because history is kept as JSON lines.
public struct FilePerModelHistoryTransaction: HistoryTransaction, Hashable, Codable {
    /// The key paths the shared query machinery seeks with, spelled on this type.
    public static let keyPaths = HistoryKeyPaths<FilePerModelHistoryTransaction>(
        token: \.token, timestamp: \.timestamp, transactionIdentifier: \.transactionIdentifier,
        author: \.author)

    /// Commit time.
    public var timestamp: Date
    /// The changes, in request order.
    public var changes: [FilePerModelHistoryChange]
    /// The transaction's token.
    public var token: FilePerModelHistoryToken
    /// The token's sequence.
    public var transactionIdentifier: Int64
    /// The store.
    public var storeIdentifier: String
    /// The saving context's author.
    public var author: String?
    /// The saving program.
    public var bundleIdentifier: String
    /// The saving process.
    public var processIdentifier: String
}
