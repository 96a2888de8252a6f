public import DataStoreCore

/// One store of a model container: the store to open and the model types it holds.
///
/// Several configurations make a container over several stores, as in the seeds' trips and people stores:
///
/// ```swift
/// let container = try ModelContainer(
///     for: [Trip.self, LivingAccommodation.self, Person.self],
///     configurations: [
///         ModelConfiguration(InMemoryStoreConfiguration(name: "trips"), for: [Trip.self, LivingAccommodation.self]),
///         ModelConfiguration(InMemoryStoreConfiguration(name: "people"), for: [Person.self]),
///     ])
/// ```
public struct ModelConfiguration: Sendable {
    /// The store's name, which becomes its identifier.
    public let name: String
    /// The entities routed to this store, or `nil` for every entity no other configuration claims.
    public let entityNames: [String]?
    let connect: @Sendable (Schema) throws -> any StoreConnection
    /// Opens the store for a migration plan: without a schema (to read what it records), as a configuration
    /// that reuses the opened instance.
    let openForMigration: @Sendable () throws -> MigratingStore?

    /// Describes a store opened from `configuration`, holding `types` (or every unclaimed type when `nil`).
    public init<Configuration: DataStoreConfiguration>(
        _ configuration: Configuration, for types: [any PersistentModel.Type]? = nil
    ) where Configuration.Store: HistoryProvidingStore {
        self.init(configuration, forEntityNames: types?.map { $0.entityName })
    }

    /// Describes a store opened from `configuration`, holding the named entities (or every unclaimed entity
    /// when `nil`).
    public init<Configuration: DataStoreConfiguration>(
        _ configuration: Configuration, forEntityNames entityNames: [String]?
    ) where Configuration.Store: HistoryProvidingStore {
        self.name = configuration.name
        self.entityNames = entityNames
        self.connect = { schema in
            var configured = configuration
            configured.schema = schema
            return TypedStoreConnection(typedStore: try Configuration.Store(configured))
        }
        self.openForMigration = {
            var configured = configuration
            configured.schema = nil
            return MigratingStore(try Configuration.Store(configured))
        }
    }

    /// Describes a store that is already open, holding `types` (or every unclaimed type when `nil`).
    ///
    /// Use it to share one store between containers, for example to add a store to a container while
    /// keeping the stores (and so the tokens) of an earlier one. The store's schema must hold every entity
    /// routed to it; ``ModelContainer/init(for:configurations:)-([PersistentModel.],_)`` checks this.
    public init<Store: HistoryProvidingStore>(
        store: Store, for types: [any PersistentModel.Type]? = nil
    ) {
        self.name = store.identifier
        self.entityNames = types?.map { $0.entityName }
        self.connect = { schema in
            for entity in schema.entities
            where store.schema.entity(named: entity.name)?.storageLayout != entity.storageLayout {
                throw DataStoreError.invalidConfiguration(
                    reason:
                        "store '\(store.identifier)' was opened without entity '\(entity.name)' as the container declares it"
                )
            }
            return TypedStoreConnection(typedStore: store)
        }
        self.openForMigration = { MigratingStore(store) }
    }
}
