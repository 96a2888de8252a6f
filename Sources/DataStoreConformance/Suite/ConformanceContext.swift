public import DataStoreCore
public import Foundation

/// What the suite hands to your store factory for one check: a name, the fixture schema, and a private
/// directory that is removed after the check.
///
/// A durable store must open the same data when the factory is called again with the same context; that
/// is how the suite reopens it.
public struct ConformanceContext: Sendable {
    /// The name to give the store; it becomes the store identifier.
    public var storeName: String
    /// The schema to open the store with: ``ConformanceItem``'s entity, and for the relationship checks also
    /// ``ConformanceFolder`` and ``ConformanceEntry`` (``ConformanceFolder/schema``).
    public var schema: Schema
    /// A fresh directory for the store's files.
    public var directory: URL

    /// Creates a context.
    public init(storeName: String, schema: Schema, directory: URL) {
        self.storeName = storeName
        self.schema = schema
        self.directory = directory
    }
}
