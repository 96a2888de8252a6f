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

    /// Describes a store opened from `configuration`, holding `types` (or every unclaimed type when `nil`).
    public init<Configuration: DataStoreConfiguration>(
        _ configuration: Configuration, for types: [any PersistentModel.Type]? = nil
    )
    where
        Configuration.Store: HistoryProviding,
        Configuration.Store.HistoryType.Token == Configuration.Store.Token
    {
        self.name = configuration.name
        self.entityNames = types?.map { $0.entityName }
        self.connect = { schema in
            var configured = configuration
            configured.schema = schema
            return TypedStoreConnection(typedStore: try Configuration.Store(configured))
        }
    }
}
