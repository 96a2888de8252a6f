import DataStoreCore
import Foundation
import InMemoryStorage
import Synchronization

/// Opens a ``FailingFetchStore``.
struct FailingFetchStoreConfiguration: DataStoreConfiguration {
    typealias Store = FailingFetchStore
    var name: String
    var schema: Schema?
}

/// An in-memory store whose fetches can be made to fail, as a disk or a server that goes away would make them.
final class FailingFetchStore: HistoryProvidingStore, Sendable {
    typealias Token = InMemoryHistoryToken
    typealias HistoryType = InMemoryHistoryTransaction

    let configuration: FailingFetchStoreConfiguration
    private let base: InMemoryDataStore
    /// While set, every fetch throws `storageUnavailable`.
    let failsFetches = Atomic<Bool>(false)

    init(_ configuration: FailingFetchStoreConfiguration) throws {
        self.configuration = configuration
        base = try InMemoryDataStore(.init(name: configuration.name, schema: configuration.schema))
    }

    var identifier: String { base.identifier }
    var schema: Schema { base.schema }

    func fetch<Model: PersistentModel>(_ request: DataStoreFetchRequest<Model>) throws -> DataStoreFetchResult
    {
        if failsFetches.load(ordering: .relaxed) {
            throw DataStoreError.storageUnavailable(path: identifier, reason: "the disk went away (test)")
        }
        return try base.fetch(request)
    }

    func save(_ request: DataStoreSaveChangesRequest) throws -> DataStoreSaveChangesResult<Token> {
        try base.save(request)
    }

    func erase() throws { try base.erase() }

    func fetchHistory(_ descriptor: HistoryDescriptor<HistoryType>) throws -> [HistoryType] {
        try base.fetchHistory(descriptor)
    }

    func deleteHistory(_ descriptor: HistoryDescriptor<HistoryType>) throws {
        try base.deleteHistory(descriptor)
    }
}
