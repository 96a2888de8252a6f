import DataStoreConformance
import DataStoreCore
import InMemoryStorage

extension SabotagedStore: DataStoreBatching {
    /// The in-memory store's batch delete, or one of three broken ones.
    func delete<T: PersistentModel>(_ request: DataStoreBatchDeleteRequest<T>) throws {
        let matches = try base.fetch(DataStoreFetchRequest(descriptor: request.fetchDescriptor)).snapshots.map
        {
            DataStoreSnapshot(persistentIdentifier: $0.persistentIdentifier, values: [:])
        }
        switch sabotage {
        case .batchDeleteLeavesAMatch:
            // An off-by-one over the matches.
            guard matches.count > 1 else { return try base.delete(request) }
            _ = try base.save(
                DataStoreSaveChangesRequest(
                    editingState: request.editingState, deleted: Array(matches.dropLast())))
        case .batchDeleteSplitIntoTransactions:
            for match in matches {
                _ = try base.save(
                    DataStoreSaveChangesRequest(editingState: request.editingState, deleted: [match]))
            }
        case .batchDeleteSkipsDeleteRules:
            // `DELETE … WHERE` without the rules: the related models are let go first, so nothing cascades.
            let rows = try base.fetch(DataStoreFetchRequest(descriptor: request.fetchDescriptor)).snapshots
            let released = rows.map { row in
                var copy = row
                for relationship in schema.entity(named: T.entityName)?.relationships ?? [] {
                    copy.values[relationship.name] = relationship.isToMany ? .array([]) : .null
                }
                return copy
            }
            _ = try base.save(
                DataStoreSaveChangesRequest(editingState: request.editingState, updated: released))
            _ = try base.save(
                DataStoreSaveChangesRequest(editingState: request.editingState, deleted: matches))
        default:
            try base.delete(request)
        }
    }
}
