public import DataStoreCore

extension SnapshotTable {
    /// The save request that carries out a batch delete on this table's current rows: a delete of every model
    /// of `T` that matches the request's predicate (evaluated as a fetch evaluates it, relationships included),
    /// under the request's editing state. Plan it with ``plan(_:)-(DataStoreSaveChangesRequest)`` while
    /// nothing else changes the table, so that the deletes are exactly the matches when they commit.
    public func saveRequest<T: PersistentModel>(deleting request: DataStoreBatchDeleteRequest<T>)
        throws(DataStoreError) -> DataStoreSaveChangesRequest
    {
        let descriptor = request.fetchDescriptor
        let bounds = ModelPredicateBounds<T>(descriptor.predicate)
        let candidates = self.candidates(for: descriptor, bounds: bounds)
        let matches = try SnapshotQuery.run(
            descriptor, over: candidates, storeIdentifier: storeIdentifier,
            relatedRows: relatedRows(for: T.self),
            bounds: bounds)
        return DataStoreSaveChangesRequest(
            editingState: request.editingState,
            deleted: matches.map {
                DataStoreSnapshot(persistentIdentifier: $0.persistentIdentifier, values: [:])
            })
    }
}
