@_spi(DataStoreInternals) public import DataStoreCore
import DataStoreKit

extension InMemoryDataStore: DataStoreBatching {
    /// Deletes every model of `T` that matches the request's predicate, as one transaction: the matches are
    /// found and deleted under the store's lock, so a concurrent save cannot slip between them.
    public func delete<T: PersistentModel>(_ request: DataStoreBatchDeleteRequest<T>) throws {
        try state.withLock { state throws(DataStoreError) in
            let plan = try state.table.plan(deleting: request, modelsExamined: &state.modelsExamined)
            guard !plan.changes.isEmpty else { return }
            _ = commit(plan, editingState: request.editingState, in: &state)
        }
    }
}
