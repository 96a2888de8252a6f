import DataStoreConformance
import DataStoreCore
import Foundation
import JSONFileStorage

/// A JSON file store that erases itself whenever it is opened: it claims `.durable`, and loses everything
/// on reopening. With `forgetsOnlyPreviousValues`, it keeps its data and loses only the previous values of
/// history written before it was opened, as a format that did not store them would.
final class ForgetfulDurableStore: HistoryProvidingStore, Sendable {
    typealias Token = JSONFileHistoryToken
    typealias HistoryType = JSONFileHistoryTransaction

    struct Configuration: DataStoreConfiguration {
        typealias Store = ForgetfulDurableStore
        var name: String
        var schema: Schema?
        var directory: URL
        var forgetsOnlyPreviousValues = false
    }

    let configuration: Configuration
    let base: JSONFileDataStore
    /// The newest transaction when opened: previous values up to it are forgotten.
    let forgottenThrough: Int64
    var identifier: String { base.identifier }
    var schema: Schema { base.schema }

    init(_ configuration: Configuration) throws {
        self.configuration = configuration
        base = try JSONFileDataStore(
            .init(name: configuration.name, schema: configuration.schema, directory: configuration.directory))
        if configuration.forgetsOnlyPreviousValues {
            forgottenThrough = try base.fetchHistory(HistoryDescriptor()).last?.transactionIdentifier ?? 0
        } else {
            forgottenThrough = 0
            try base.erase()
        }
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
        var transactions = try base.fetchHistory(descriptor)
        for index in transactions.indices where transactions[index].transactionIdentifier <= forgottenThrough
        {
            for change in transactions[index].changes.indices {
                transactions[index].changes[change].previousValues = nil
            }
        }
        return transactions
    }
    func deleteHistory(_ descriptor: HistoryDescriptor<JSONFileHistoryTransaction>) throws {
        try base.deleteHistory(descriptor)
    }
}
