/// A store that deletes by predicate in one request, as SwiftData's `DataStoreBatching`: a context's
/// `delete(model:where:includeSubclasses:)` sends the request to the store instead of fetching every match and
/// deleting it (which is what it does for a store that does not conform).
///
/// # Implementation requirements
///
/// - `delete(_:)` deletes, as one transaction, exactly the models of `T` that match the predicate when the
///   transaction commits (every model of `T` without a predicate): a model saved by another writer just
///   before is deleted if it matches, and no model is deleted that does not. Nothing matching commits no
///   transaction and throws nothing.
/// - It is a save that deletes those models: history records one delete per model, with its tombstone,
///   under the request's ``DataStoreBatchDeleteRequest/editingState``; delete rules apply (cascades and
///   nullifies in the same transaction, `.deny` refuses the whole request with
///   ``DataStoreError/deleteDenied(store:identifier:relationship:relatedCount:)``); the deleted models' unique values are
///   free again. `SavePlanner` does all of this given the deletes.
/// - A store that cannot evaluate the predicate throws the error its `fetch` throws for it, and deletes
///   nothing.
/// - A read-only store throws ``DataStoreError/readOnlyStore(store:)``.
public protocol DataStoreBatching: DataStore {
    /// Deletes the models of `T` that match the request's predicate, in one transaction.
    func delete<T: PersistentModel>(_ request: DataStoreBatchDeleteRequest<T>) throws
}
