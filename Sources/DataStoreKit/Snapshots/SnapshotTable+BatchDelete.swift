public import DataStoreCore

extension SnapshotTable {
    /// The plan that carries out a batch delete on this table's current rows: a delete of every model of `T`
    /// that matches the request's predicate (evaluated as a fetch evaluates it, relationships included). Commit
    /// it with `apply(_:)` while nothing else changes the table, so that the deletes are exactly the matches
    /// when they commit, and record it under the request's `editingState`.
    ///
    /// The plan is the one ``plan(_:)-(DataStoreSaveChangesRequest)`` makes of a save that deletes the matches.
    /// When `T`'s entity has no relationships, no delete rule reaches past the matches, and the plan is made
    /// from the matched rows directly instead of looking each one up again (for a predicate that is one equality
    /// on an indexed attribute, each delete as its row is looked up).
    ///
    /// An equality on an indexed attribute (or on `persistentModelID`) examines only the rows holding the value,
    /// as a fetch does; `modelsExamined` is increased by the number of rows the predicate was evaluated on.
    public func plan<T: PersistentModel>(
        deleting request: DataStoreBatchDeleteRequest<T>, modelsExamined: inout Int
    ) throws(DataStoreError) -> SavePlan {
        let descriptor = request.fetchDescriptor
        let bounds = ModelPredicateBounds<T>(descriptor.predicate)
        guard let rules = rules[T.entityName], rules.relationships.isEmpty else {
            let matches = try self.matches(descriptor, bounds: bounds, modelsExamined: &modelsExamined)
            return try plan(
                DataStoreSaveChangesRequest(
                    editingState: request.editingState,
                    deleted: matches.map {
                        DataStoreSnapshot(persistentIdentifier: $0.persistentIdentifier, values: [:])
                    }))
        }
        if let changes = try indexedDeletions(
            descriptor, bounds: bounds, rules: rules, modelsExamined: &modelsExamined)
        {
            return SavePlan(changes: changes, remappedIdentifiers: [:])
        }
        let matches = try self.matches(descriptor, bounds: bounds, modelsExamined: &modelsExamined)
        return SavePlan(changes: matches.map(rules.deletion(of:)), remappedIdentifiers: [:])
    }

    /// The rows a batch delete removes, as a fetch with the request's descriptor finds them.
    private func matches<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, bounds: ModelPredicateBounds<T>, modelsExamined: inout Int
    ) throws(DataStoreError) -> [DataStoreSnapshot] {
        let candidates = selectCandidates(for: descriptor, bounds: bounds)
        modelsExamined += candidates.rows.count
        return try SnapshotQuery.run(
            descriptor, candidates: candidates, storeIdentifier: storeIdentifier,
            relatedRows: relatedRows(for: T.self), bounds: bounds)
    }

    /// The deletes of the rows an index picks, when the predicate is one equality on an indexed attribute of
    /// `T` and nothing else (the matches are then the rows the index files under the value): each made from
    /// its row right after the lookup, then put in identifier order. `nil` for any other predicate.
    ///
    /// The general path collects the matching rows first and makes the deletes in a second pass: with
    /// thousands of rows, each row's values were out of the cache again by then, and each was retained and
    /// released once more. `BatchDeletePlanTests` checks that both paths make the plan of a save deleting the matches.
    private func indexedDeletions<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, bounds: ModelPredicateBounds<T>, rules: EntityRules,
        modelsExamined: inout Int
    ) throws(DataStoreError) -> [PlannedChange]? {
        let values = bounds.values
        guard descriptor.sortBy.isEmpty, descriptor.fetchOffset == nil, descriptor.fetchLimit == nil,
            values.isExact, let name = values.attributeConstraints.first?.name,
            ModelTypeFacts.of(T.self).valueAttributeNames.contains(name),
            let holders = indexedEqualityHolders(of: T.entityName, bounds: values)
        else { return nil }
        try OpaqueAttributeUse.check(descriptor, store: storeIdentifier)
        let rows = rowsByEntity[T.entityName] ?? [:]
        var changes: [PlannedChange] = []
        changes.reserveCapacity(holders.count)
        for id in holders {
            guard let row = rows[id] else { continue }
            changes.append(rules.deletion(of: row))
        }
        modelsExamined += changes.count
        return IdentifierOrder.sorted(consume changes, by: \.identifier)
    }
}
