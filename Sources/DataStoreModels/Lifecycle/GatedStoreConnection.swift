import DataStoreCore

/// A store connection whose every call is an operation on the container (see ``ContainerLifecycle``): after
/// the container closes, it throws `DataStoreError.containerClosed(stores:)` instead of reaching the store.
struct GatedStoreConnection: StoreConnection {
    let inner: any StoreConnection
    let lifecycle: ContainerLifecycle

    var identifier: String { inner.identifier }
    var store: any DataStore { inner.store }
    var transactionIdentifierIsSequence: Bool { inner.transactionIdentifierIsSequence }

    func fetch<Model: PersistentModel>(_ request: DataStoreFetchRequest<Model>) throws -> [DataStoreSnapshot]
    {
        try lifecycle.use { try inner.fetch(request) }
    }

    func save(_ request: DataStoreSaveChangesRequest) throws -> StoreSaveOutcome {
        try lifecycle.use { try inner.save(request) }
    }

    func delete<Model: PersistentModel>(_ request: DataStoreBatchDeleteRequest<Model>) throws {
        try lifecycle.use { try inner.delete(request) }
    }

    func history(
        after component: CompositeHistoryToken.Component?, through upper: CompositeHistoryToken.Component?,
        limit: Int?, modelTypes: ModelTypeRegistry
    ) throws -> [StoreHistoryEntry] {
        try lifecycle.use {
            try inner.history(after: component, through: upper, limit: limit, modelTypes: modelTypes)
        }
    }

    func deleteHistory(transactionIdentifiers: [Int64]) throws {
        try lifecycle.use { try inner.deleteHistory(transactionIdentifiers: transactionIdentifiers) }
    }

    func transaction(at position: CompositeHistoryToken.Component, modelTypes: ModelTypeRegistry) throws
        -> ContainerHistoryTransaction?
    {
        try lifecycle.use { try inner.transaction(at: position, modelTypes: modelTypes) }
    }

    func newestPosition() throws -> CompositeHistoryToken.Component? {
        try lifecycle.use { try inner.newestPosition() }
    }

    /// Not gated: a signal only makes an observer look, and the look meets the closed container's error.
    func commitSignals() -> AsyncStream<Void>? {
        inner.commitSignals()
    }
}
