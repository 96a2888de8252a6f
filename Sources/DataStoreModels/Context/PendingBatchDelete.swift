import DataStoreCore
import DataStoreKit
import Foundation

/// A `delete(model:where:includeSubclasses:)` waiting for the context's next save, with its model type erased.
struct PendingBatchDelete {
    /// The entity whose models it deletes.
    let entityName: String
    /// Sends the request, as `editingState`, to the store that holds the entity.
    let run: (_ store: any StoreConnection, _ editingState: EditingState) throws -> Void
    /// The snapshots among `snapshots` that the predicate matches (evaluated as a context's fetch evaluates it).
    let matches:
        (_ context: ModelContext, _ snapshots: [DataStoreSnapshot], _ storeIdentifier: String) throws
            -> [DataStoreSnapshot]

    init<T: PersistentModel>(_: T.Type, predicate: Predicate<T>?, includeSubclasses: Bool) {
        entityName = T.entityName
        run = { store, editingState in
            try store.delete(
                DataStoreBatchDeleteRequest<T>(
                    predicate: predicate, includeSubclasses: includeSubclasses, editingState: editingState))
        }
        matches = { context, snapshots, storeIdentifier in
            guard let predicate else { return snapshots }
            return try SnapshotQuery.run(
                FetchDescriptor<T>(predicate: predicate), over: snapshots, storeIdentifier: storeIdentifier,
                resolver: context.makeResolver(for: T.self))
        }
    }
}
