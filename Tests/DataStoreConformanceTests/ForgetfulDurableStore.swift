import DataStoreConformance
import DataStoreCore
import Foundation
import JSONFileStorage

/// A JSON file store that erases itself whenever it is opened: it claims `.durable`, and loses everything
/// on reopening.
final class ForgetfulDurableStore: HistoryProvidingStore, Sendable {
    typealias Token = JSONFileHistoryToken
    typealias HistoryType = JSONFileHistoryTransaction

    struct Configuration: DataStoreConfiguration {
        typealias Store = ForgetfulDurableStore
        var name: String
        var schema: Schema?
        var directory: URL
    }

    let configuration: Configuration
    let base: JSONFileDataStore
    var identifier: String { base.identifier }
    var schema: Schema { base.schema }

    init(_ configuration: Configuration) throws {
        self.configuration = configuration
        base = try JSONFileDataStore(
            .init(name: configuration.name, schema: configuration.schema, directory: configuration.directory))
        try base.erase()
    }

    func fetch<Model: PersistentModel>(_ request: DataStoreFetchRequest<Model>) throws -> DataStoreFetchResult
    {
        try base.fetch(request)
    }
    func save(_ request: DataStoreSaveChangesRequest) throws -> DataStoreSaveChangesResult<
        JSONFileHistoryToken
    > {
        try base.save(request)
    }
    func erase() throws { try base.erase() }
    func fetchHistory(_ descriptor: HistoryDescriptor<JSONFileHistoryTransaction>) throws
        -> [JSONFileHistoryTransaction]
    {
        try base.fetchHistory(descriptor)
    }
    func deleteHistory(_ descriptor: HistoryDescriptor<JSONFileHistoryTransaction>) throws {
        try base.deleteHistory(descriptor)
    }
}
