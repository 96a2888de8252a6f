public import DataStoreCore
@_spi(DataStoreInternals) import DataStoreKit

extension JSONFileDataStore: DataStoreBatching {
    /// Deletes every model of `T` that matches the request's predicate, as one journal record: the matches are
    /// found on current state under the store's file lock (after catching up on other processes' commits), so
    /// a save by any process cannot slip between finding and deleting them.
    ///
    /// - Throws: ``DataStoreError/readOnlyStore(store:)`` for a read-only store, a delete rule's refusal, or
    ///   ``DataStoreError/storageUnavailable(path:reason:)`` if the write or fsync fails; then nothing was
    ///   committed.
    public func delete<T: PersistentModel>(_ request: DataStoreBatchDeleteRequest<T>) throws {
        guard !configuration.isReadOnly else { throw DataStoreError.readOnlyStore(store: identifier) }
        maintainIfDue()
        defer { dropRecentEncodings() }
        var examined = 0
        // The request only carries the editing state: the plan is made from the matches themselves.
        let results = try commit(
            resolving: { _ in [DataStoreSaveChangesRequest(editingState: request.editingState)] },
            planning: { state, _ in
                [.success(try state.replayed.table.plan(deleting: request, modelsExamined: &examined))]
            })
        access.inMemory { $0.statistics.modelsExamined += examined }
        if case .failure(let error)? = results.first { throw error }
        maintainIfDue()
    }
}
