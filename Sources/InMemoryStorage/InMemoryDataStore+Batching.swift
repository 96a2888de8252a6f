public import DataStoreCore
import DataStoreKit

extension InMemoryDataStore: DataStoreBatching {
    /// Deletes every model of `T` that matches the request's predicate, as one transaction: the matches are
    /// found and deleted under the store's lock, so a concurrent save cannot slip between them.
    public func delete<T: PersistentModel>(_ request: DataStoreBatchDeleteRequest<T>) throws {
        try state.withLock { state throws(DataStoreError) in
            let save = try state.table.saveRequest(deleting: request, modelsExamined: &state.modelsExamined)
            guard !save.deleted.isEmpty else { return }
            let plan = try state.table.plan(save)
            _ = commit(plan, of: save, in: &state)
        }
    }
}
