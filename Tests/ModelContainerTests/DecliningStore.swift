import DataStoreCore
import Foundation
import InMemoryStorage
import Synchronization

/// Opens a ``DecliningStore``.
struct DecliningStoreConfiguration: DataStoreConfiguration {
    typealias Store = DecliningStore
    var name: String
    var schema: Schema?
}

/// An in-memory store that declines every predicate and every sort, as SwiftData lets a store do: its fetch
/// throws `preferInMemoryFilter` for any predicate and `preferInMemorySort` for any sort, and its batch delete
/// declines any predicate too. The model layer must answer as if the store had done the work.
final class DecliningStore: HistoryProvidingStore, DataStoreBatching, Sendable {
    typealias Token = InMemoryHistoryToken
    typealias HistoryType = InMemoryHistoryTransaction

    let configuration: DecliningStoreConfiguration
    private let base: InMemoryDataStore
    /// How many requests it declined.
    let declined = Atomic<Int>(0)

    init(_ configuration: DecliningStoreConfiguration) throws {
        self.configuration = configuration
        base = try InMemoryDataStore(.init(name: configuration.name, schema: configuration.schema))
    }

    var identifier: String { base.identifier }
    var schema: Schema { base.schema }

    func fetch<Model: PersistentModel>(_ request: DataStoreFetchRequest<Model>) throws -> DataStoreFetchResult
    {
        if request.descriptor.predicate != nil {
            declined.add(1, ordering: .relaxed)
            throw DataStoreError.preferInMemoryFilter
        }
        if !request.descriptor.sortBy.isEmpty {
            declined.add(1, ordering: .relaxed)
            throw DataStoreError.preferInMemorySort
        }
        return try base.fetch(request)
    }

    func delete<T: PersistentModel>(_ request: DataStoreBatchDeleteRequest<T>) throws {
        if request.predicate != nil {
            declined.add(1, ordering: .relaxed)
            throw DataStoreError.preferInMemoryFilter
        }
        try base.delete(request)
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
