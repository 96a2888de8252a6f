public import DataStoreCore

/// Describes an ``InMemoryDataStore``: its name and, optionally, how much history to keep.
public struct InMemoryStoreConfiguration: DataStoreConfiguration {
    /// The store opened from this configuration.
    public typealias Store = InMemoryDataStore

    /// The store's name and identifier.
    public var name: String
    /// The schema; a model container fills it in.
    public var schema: Schema?
    /// The most transactions to retain; older ones are deleted after each save, expiring their tokens.
    /// `nil` keeps all history until `deleteHistory`.
    public var maximumHistoryCount: Int?

    /// Creates a configuration.
    public init(name: String, schema: Schema? = nil, maximumHistoryCount: Int? = nil) {
        self.name = name
        self.schema = schema
        self.maximumHistoryCount = maximumHistoryCount
    }
}
