public import Foundation

/// What a file store holds, as `datastore info` prints it: each backend describes itself.
public struct StoreInspection: Sendable {
    /// The backend's short name, such as `jsonfile`.
    public var backend: String
    /// The format version of its files.
    public var formatVersion: Int
    /// The store's identifier.
    public var storeIdentifier: String
    /// The current epoch (a new one after every erase).
    public var epoch: UUID
    /// What ``countsByEntity`` counts: `models` or `samples`.
    public var countedThings: String
    /// The number of models (or samples) of each entity.
    public var countsByEntity: [String: Int]
    /// Backend-specific lines, in order (for example the number of segments).
    public var details: [Detail]
    /// The number of retained history transactions.
    public var transactionCount: Int
    /// The number of changes in them.
    public var changeCount: Int
    /// The oldest token an app can still use (tokens before it are expired), as JSON.
    public var oldestUsableToken: String
    /// The newest transaction's token, as JSON.
    public var newestToken: String

    /// One labelled value.
    public struct Detail: Sendable, Hashable {
        /// The label.
        public var label: String
        /// The value.
        public var value: String

        /// Creates a detail.
        public init(_ label: String, _ value: String) {
            self.label = label
            self.value = value
        }
    }

    /// Creates an inspection.
    public init(
        backend: String, formatVersion: Int, storeIdentifier: String, epoch: UUID, countedThings: String,
        countsByEntity: [String: Int], details: [Detail], transactionCount: Int, changeCount: Int,
        oldestUsableToken: String, newestToken: String
    ) {
        self.backend = backend
        self.formatVersion = formatVersion
        self.storeIdentifier = storeIdentifier
        self.epoch = epoch
        self.countedThings = countedThings
        self.countsByEntity = countsByEntity
        self.details = details
        self.transactionCount = transactionCount
        self.changeCount = changeCount
        self.oldestUsableToken = oldestUsableToken
        self.newestToken = newestToken
    }
}
