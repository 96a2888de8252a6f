public import DataStoreCore

extension SnapshotTable {
    /// The save request that carries out a batch delete on this table's current rows: a delete of every model
    /// of `T` that matches the request's predicate (evaluated as a fetch evaluates it, relationships included),
    /// under the request's editing state. Plan it with ``plan(_:)-(DataStoreSaveChangesRequest)`` while
    /// nothing else changes the table, so that the deletes are exactly the matches when they commit.
    ///
    /// An equality on an indexed attribute (or on `persistentModelID`) examines only the rows holding the value,
    /// as a fetch does; `modelsExamined` is increased by the number of rows the predicate was evaluated on.
    public func saveRequest<T: PersistentModel>(
        deleting request: DataStoreBatchDeleteRequest<T>, modelsExamined: inout Int
    ) throws(DataStoreError) -> DataStoreSaveChangesRequest {
        let descriptor = request.fetchDescriptor
        let bounds = ModelPredicateBounds<T>(descriptor.predicate)
        let candidates = self.candidates(for: descriptor, bounds: bounds)
        modelsExamined += candidates.count
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
