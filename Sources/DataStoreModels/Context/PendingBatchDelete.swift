import DataStoreCore
import DataStoreKit
import Foundation

/// A `delete(model:where:includeSubclasses:)` waiting for the context's next save, with its model type erased.
struct PendingBatchDelete {
    /// The entity whose models it deletes.
    let entityName: String
    /// Deletes the matches, as `editingState`, in the store that holds the entity: through its
    /// `DataStoreBatching` conformance, or, when it has none or declines the predicate
    /// (`preferInMemoryFilter`), by fetching the matches through the context (which evaluates a declined
    /// predicate in Swift) and saving their deletes. A save by another writer between that fetch and the
    /// delete can change what matches; see `Docs/Architecture.md`.
    let run:
        (_ context: ModelContext, _ store: any StoreConnection, _ editingState: EditingState) throws -> Void
    /// The snapshots among `snapshots` that the predicate matches (evaluated as a context's fetch evaluates it).
    let matches:
        (_ context: ModelContext, _ snapshots: [DataStoreSnapshot], _ storeIdentifier: String) throws
            -> [DataStoreSnapshot]

    init<T: PersistentModel>(_: T.Type, predicate: Predicate<T>?, includeSubclasses: Bool) {
        entityName = T.entityName
        run = { context, store, editingState in
            let request = DataStoreBatchDeleteRequest<T>(
                predicate: predicate, includeSubclasses: includeSubclasses, editingState: editingState)
            do {
                return try store.delete(request)
            } catch DataStoreError.unsupportedFeature, DataStoreError.preferInMemoryFilter {
                // The fallback below.
            }
            let matches = try context.fetchSnapshots(request.fetchDescriptor)
            guard !matches.isEmpty else { return }
            _ = try store.save(
                DataStoreSaveChangesRequest(
                    editingState: editingState,
                    deleted: matches.map {
                        DataStoreSnapshot(persistentIdentifier: $0.persistentIdentifier, values: [:])
                    }))
        }
        matches = { context, snapshots, storeIdentifier in
            guard let predicate else { return snapshots }
            return try SnapshotQuery.run(
                FetchDescriptor<T>(predicate: predicate), over: snapshots, storeIdentifier: storeIdentifier,
                resolver: context.makeResolver(for: T.self))
        }
    }
}
