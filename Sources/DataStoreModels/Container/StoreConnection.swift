import DataStoreCore
import Foundation

/// One store of a container, seen through the operations the model layer needs, with the store's own
/// types erased.
protocol StoreConnection: Sendable {
    var identifier: String { get }
    var store: any DataStore { get }
    func fetch<Model: PersistentModel>(_ request: DataStoreFetchRequest<Model>) throws -> [DataStoreSnapshot]
    func save(_ request: DataStoreSaveChangesRequest) throws -> StoreSaveOutcome
    /// Sends a batch delete to a store that conforms to `DataStoreBatching`; throws `unsupportedFeature` for
    /// one that does not (the context then fetches the matches and saves their deletes).
    func delete<Model: PersistentModel>(_ request: DataStoreBatchDeleteRequest<Model>) throws
    /// The store's transactions after `component` (from the oldest retained one when `nil`) and through
    /// `upper` (to the newest when `nil`), at most `limit` of them, as container transactions whose tokens
    /// the caller fills in.
    func history(
        after component: CompositeHistoryToken.Component?, through upper: CompositeHistoryToken.Component?,
        limit: Int?, modelTypes: ModelTypeRegistry
    ) throws -> [StoreHistoryEntry]
    /// The transaction at `position`, or `nil` when history no longer holds it (trimmed, or the store was erased
    /// and `position.epoch` is gone).
    func transaction(at position: CompositeHistoryToken.Component, modelTypes: ModelTypeRegistry) throws
        -> ContainerHistoryTransaction?
    func deleteHistory(transactionIdentifiers: [Int64]) throws
    /// The newest transaction's position, or `nil` when the store has none.
    func newestPosition() throws -> CompositeHistoryToken.Component?
    /// Whether the store's transaction identifiers are its sequence numbers.
    var transactionIdentifierIsSequence: Bool { get }
    /// The store's `commitSignals()`, or `nil` when it does not conform to `HistoryObserving` (its
    /// observers then poll).
    func commitSignals() -> AsyncStream<Void>?
}

/// What a save did in one store.
struct StoreSaveOutcome: Sendable {
    var remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]
    var position: CompositeHistoryToken.Component?
    var deleteRuleChanges: [PlannedChange] = []
}

/// One store transaction on its way into the merged stream.
struct StoreHistoryEntry: Sendable {
    var transaction: ContainerHistoryTransaction
    var epoch: UUID
}

/// The connection for a concrete store type.
struct TypedStoreConnection<Store: HistoryProvidingStore>: StoreConnection {
    let typedStore: Store

    var identifier: String { typedStore.identifier }
    var store: any DataStore { typedStore }
    var transactionIdentifierIsSequence: Bool { Store.HistoryType.transactionIdentifierIsSequence }

    func fetch<Model: PersistentModel>(_ request: DataStoreFetchRequest<Model>) throws -> [DataStoreSnapshot]
    {
        try typedStore.fetch(request).snapshots
    }

    func save(_ request: DataStoreSaveChangesRequest) throws -> StoreSaveOutcome {
        let result = try typedStore.save(request)
        return StoreSaveOutcome(
            remappedIdentifiers: result.remappedIdentifiers,
            position: result.token.map { .init(epoch: $0.epoch, sequence: $0.sequence) },
            deleteRuleChanges: result.deleteRuleChanges)
    }

    func delete<Model: PersistentModel>(_ request: DataStoreBatchDeleteRequest<Model>) throws {
        guard let batching = typedStore as? any DataStoreBatching else {
            throw DataStoreError.unsupportedFeature(
                store: identifier, reason: "it does not conform to DataStoreBatching (delete by predicate)")
        }
        try batching.delete(request)
    }

    func history(
        after component: CompositeHistoryToken.Component?, through upper: CompositeHistoryToken.Component?,
        limit: Int?, modelTypes: ModelTypeRegistry
    ) throws -> [StoreHistoryEntry] {
        var descriptor = HistoryDescriptor<Store.HistoryType>(fetchLimit: limit)
        let token = { (component: CompositeHistoryToken.Component) in
            Store.Token(storeIdentifier: identifier, epoch: component.epoch, sequence: component.sequence)
        }
        switch (component, upper) {
        case (let lower?, let upper?):
            descriptor.predicate = HistoryPredicates.between(after: token(lower), through: token(upper))
        case (let lower?, nil): descriptor.predicate = HistoryPredicates.after(token(lower))
        case (nil, let upper?): descriptor.predicate = HistoryPredicates.through(token(upper))
        case (nil, nil): break
        }
        return try history(matching: descriptor.predicate, limit: limit, modelTypes: modelTypes)
    }

    /// The store's transactions matching `predicate`, as container transactions whose tokens the caller fills
    /// in.
    private func history(
        matching predicate: Predicate<Store.HistoryType>?, limit: Int?, modelTypes: ModelTypeRegistry
    ) throws -> [StoreHistoryEntry] {
        let descriptor = HistoryDescriptor<Store.HistoryType>(predicate: predicate, fetchLimit: limit)
        return try typedStore.fetchHistory(descriptor).map { transaction in
            let changes = transaction.changes.map { change in
                modelTypes.typedChange(change)
            }
            return StoreHistoryEntry(
                transaction: ContainerHistoryTransaction(
                    timestamp: transaction.timestamp, changes: changes, token: CompositeHistoryToken(),
                    transactionIdentifier: transaction.transactionIdentifier,
                    storeIdentifier: transaction.storeIdentifier, author: transaction.author,
                    bundleIdentifier: transaction.bundleIdentifier,
                    processIdentifier: transaction.processIdentifier,
                    storeSequence: transaction.token.sequence),
                epoch: transaction.token.epoch)
        }
    }

    func transaction(at position: CompositeHistoryToken.Component, modelTypes: ModelTypeRegistry) throws
        -> ContainerHistoryTransaction?
    {
        let token = { (sequence: Int64) in
            Store.Token(storeIdentifier: identifier, epoch: position.epoch, sequence: sequence)
        }
        var entries: [StoreHistoryEntry]
        do {
            // A token range seeks; a store refuses it once the transaction before is trimmed, although this one
            // may still be there: then by identifier, which scans.
            entries = try history(
                matching: HistoryPredicates.between(
                    after: token(position.sequence - 1), through: token(position.sequence)),
                limit: 1, modelTypes: modelTypes)
        } catch let error as DataStoreError
            where error.code == .historyTokenExpired && transactionIdentifierIsSequence
        {
            entries = try history(
                matching: HistoryPredicates.identifiers([position.sequence]), limit: 1, modelTypes: modelTypes
            )
        }
        guard let entry = entries.first, entry.epoch == position.epoch,
            entry.transaction.storeSequence == position.sequence
        else { return nil }
        return entry.transaction
    }

    func newestPosition() throws -> CompositeHistoryToken.Component? {
        var descriptor = HistoryDescriptor<Store.HistoryType>()
        descriptor.sortBy = [
            SortDescriptor(Store.HistoryType.keyPaths.transactionIdentifier, order: .reverse)
        ]
        descriptor.fetchLimit = 1
        return try typedStore.fetchHistory(descriptor).first.map {
            .init(epoch: $0.token.epoch, sequence: $0.token.sequence)
        }
    }

    func commitSignals() -> AsyncStream<Void>? {
        (typedStore as? any HistoryObserving)?.commitSignals()
    }

    func deleteHistory(transactionIdentifiers: [Int64]) throws {
        guard !transactionIdentifiers.isEmpty else { return }
        try typedStore.deleteHistory(
            HistoryDescriptor(predicate: HistoryPredicates.identifiers(Set(transactionIdentifiers))))
    }
}
