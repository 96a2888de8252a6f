import DataStoreConformance
import DataStoreCore
import Foundation
import JSONFileStorage

struct SabotagedValueStoreConfiguration: DataStoreConfiguration {
    typealias Store = SabotagedValueStore
    var name: String
    var schema: Schema?
    var directory: URL
}

/// A correct JSON file store whose history claims every value of the model on an update, not just the
/// changed ones: a sync replaying it would be right by luck, and wrong as soon as two writers race.
final class SabotagedValueStore: DataStore, HistoryProviding, Sendable {
    typealias Token = JSONFileHistoryToken
    typealias HistoryType = JSONFileHistoryTransaction

    let configuration: SabotagedValueStoreConfiguration
    let base: JSONFileDataStore
    var identifier: String { base.identifier }
    var schema: Schema { base.schema }

    init(_ configuration: SabotagedValueStoreConfiguration) throws {
        self.configuration = configuration
        base = try JSONFileDataStore(
            .init(name: configuration.name, schema: configuration.schema, directory: configuration.directory))
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
        var current: [PersistentIdentifier: [String: SnapshotValue]] = [:]
        return try base.fetchHistory(descriptor).map { transaction in
            var copy = transaction
            copy.changes = transaction.changes.map { change in
                var change = change
                current[change.changedPersistentIdentifier, default: [:]].merge(change.values) { _, new in new
                }
                if change.kind == .update {
                    change.values = current[change.changedPersistentIdentifier] ?? [:]
                }
                return change
            }
            return copy
        }
    }

    func deleteHistory(_ descriptor: HistoryDescriptor<JSONFileHistoryTransaction>) throws {
        try base.deleteHistory(descriptor)
    }
}
