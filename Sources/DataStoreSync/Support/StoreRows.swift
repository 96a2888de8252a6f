import DataStoreCore
import Foundation

/// Reads one store's current rows by identifier or by entity, for the model types a sync covers.
///
/// Fetches are typed (`FetchDescriptor<Model>`), so the engine keeps the model types by entity name and opens
/// the right one for each identifier.
struct StoreRows<Store: DataStore>: Sendable {
    let store: Store
    let models: ModelTypes

    /// The rows of `identifiers` the store holds, by identifier; one fetch per entity.
    func rows(_ identifiers: some Sequence<PersistentIdentifier>) throws -> [PersistentIdentifier:
        DataStoreSnapshot]
    {
        var byEntity: [String: [PersistentIdentifier]] = [:]
        for id in identifiers { byEntity[id.entityName, default: []].append(id) }
        var found: [PersistentIdentifier: DataStoreSnapshot] = [:]
        for (entity, ids) in byEntity {
            guard let type = models.type(named: entity) else { continue }
            for row in try Self.rows(type, ids, in: store) { found[row.persistentIdentifier] = row }
        }
        return found
    }

    /// The row of `identifier`, or `nil` when the store holds none.
    func row(_ identifier: PersistentIdentifier) throws -> DataStoreSnapshot? {
        try rows(CollectionOfOne(identifier))[identifier]
    }

    /// Every row of the entity.
    func all(_ entity: String) throws -> [DataStoreSnapshot] {
        guard let type = models.type(named: entity) else { return [] }
        return try Self.all(type, in: store)
    }

    /// Whether the store holds any model of a synced entity.
    func holdsAnyRow() throws -> Bool {
        for entity in models.syncedEntities {
            guard let type = models.type(named: entity) else { continue }
            if try Self.holdsAny(type, in: store) { return true }
        }
        return false
    }

    private static func holdsAny<Model: PersistentModel>(_: Model.Type, in store: Store) throws -> Bool {
        var descriptor = FetchDescriptor<Model>()
        descriptor.fetchLimit = 1
        return try !store.fetch(DataStoreFetchRequest(descriptor: descriptor)).snapshots.isEmpty
    }

    private static func rows<Model: PersistentModel>(
        _: Model.Type, _ identifiers: [PersistentIdentifier], in store: Store
    ) throws -> [DataStoreSnapshot] {
        let wanted = identifiers
        return try store.fetch(
            DataStoreFetchRequest(
                descriptor: FetchDescriptor<Model>(
                    predicate: #Predicate { wanted.contains($0.persistentModelID) }))
        ).snapshots
    }

    private static func all<Model: PersistentModel>(_: Model.Type, in store: Store) throws
        -> [DataStoreSnapshot]
    {
        try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Model>())).snapshots
    }
}

/// The model types a sync covers, by entity name, plus ``SyncCursor``.
struct ModelTypes: @unchecked Sendable {
    // `@unchecked`: metatypes are immutable.
    private let types: [String: any PersistentModel.Type]

    init(_ types: [any PersistentModel.Type]) {
        var byName: [String: any PersistentModel.Type] = [SyncCursor.entityName: SyncCursor.self]
        for type in types { byName[type.entityName] = byName[type.entityName] ?? type }
        self.types = byName
    }

    /// The type of the entity, or `nil` when the sync does not cover it.
    func type(named entity: String) -> (any PersistentModel.Type)? { types[entity] }

    /// The entities synced, in name order, without ``SyncCursor``.
    var syncedEntities: [String] { types.keys.filter { $0 != SyncCursor.entityName }.sorted() }

    /// Whether changes of the entity travel: a synced model, not the bookkeeping.
    func syncs(_ entity: String) -> Bool { entity != SyncCursor.entityName && types[entity] != nil }
}
