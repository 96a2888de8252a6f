public import DataStoreCore
public import Foundation

/// Describes a ``FilePerModelDataStore``: a name and a directory.
public struct FilePerModelStoreConfiguration: DataStoreConfiguration {
    /// The store this configuration opens.
    public typealias Store = FilePerModelDataStore

    /// The store's name and identifier.
    public var name: String
    /// The schema; a model container fills it in.
    public var schema: Schema?
    /// The directory holding the store's files.
    public var directory: URL

    /// Creates a configuration.
    public init(name: String, schema: Schema? = nil, directory: URL) {
        self.name = name
        self.schema = schema
        self.directory = directory
    }
}
