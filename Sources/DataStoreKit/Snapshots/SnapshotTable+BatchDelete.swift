public import DataStoreCore

extension SnapshotTable {
    /// The plan that carries out a batch delete on this table's current rows: a delete of every model of `T`
    /// that matches the request's predicate (evaluated as a fetch evaluates it, relationships included). Commit
    /// it with `apply(_:)` while nothing else changes the table, so that the deletes are exactly the matches
    /// when they commit, and record it under the request's `editingState`.
    ///
    /// The plan is the one ``plan(_:)-(DataStoreSaveChangesRequest)`` makes of a save that deletes the matches.
    /// When `T`'s entity has no relationships, no delete rule reaches past the matches, and the plan is made
    /// from the matched rows directly instead of looking each one up again.
    ///
    /// An equality on an indexed attribute (or on `persistentModelID`) examines only the rows holding the value,
    /// as a fetch does; `modelsExamined` is increased by the number of rows the predicate was evaluated on.
    public func plan<T: PersistentModel>(
        deleting request: DataStoreBatchDeleteRequest<T>, modelsExamined: inout Int
    ) throws(DataStoreError) -> SavePlan {
        let matches = try self.matches(of: request, modelsExamined: &modelsExamined)
        guard let rules = rules[T.entityName], rules.relationships.isEmpty else {
            return try plan(
                DataStoreSaveChangesRequest(
                    editingState: request.editingState,
                    deleted: matches.map {
                        DataStoreSnapshot(persistentIdentifier: $0.persistentIdentifier, values: [:])
                    }))
        }
        return SavePlan(changes: matches.map(rules.deletion(of:)), remappedIdentifiers: [:])
    }

    /// The rows a batch delete removes, as a fetch with the request's descriptor finds them.
    private func matches<T: PersistentModel>(
        of request: DataStoreBatchDeleteRequest<T>, modelsExamined: inout Int
    ) throws(DataStoreError) -> [DataStoreSnapshot] {
        let descriptor = request.fetchDescriptor
        let bounds = ModelPredicateBounds<T>(descriptor.predicate)
        let candidates = selectCandidates(for: descriptor, bounds: bounds)
        modelsExamined += candidates.rows.count
        return try SnapshotQuery.run(
            descriptor, candidates: candidates, storeIdentifier: storeIdentifier,
            relatedRows: relatedRows(for: T.self), bounds: bounds)
    }
}
