public import DataStoreCore

extension DataStoreConfiguration
where Store: HistoryProvidingStore, Store.HistoryType.Change: ValueRecordingHistoryChange {
    /// Opens this store (the device's) and the server's from their configurations, with the sync's
    /// bookkeeping (``SyncCursor``) added to both schemas, and makes the sync of the two for the given model
    /// types.
    ///
    /// ```swift
    /// let sync = try JSONFileStoreConfiguration(name: "trips", directory: appSupport).syncing(
    ///     with: PostgresStoreConfiguration(name: "trips", connectionString: url, databaseSchema: "travel"),
    ///     deviceName: "phone", models: [Trip.self, LivingAccommodation.self])
    /// let container = try ModelContainer(
    ///     for: Trip.self, LivingAccommodation.self, configurations: ModelConfiguration(syncing: sync))
    /// sync.start()
    /// ```
    ///
    /// - Parameters:
    ///   - server: The server's store. Without a schema it gets the device's; with one (a newer app version's,
    ///     say) ``SyncCursor`` is added to it when missing.
    ///   - deviceName: The device's name, unique among the server's devices and stable across launches.
    ///   - models: The model types to sync. The device's schema becomes theirs plus ``SyncCursor``.
    ///   - resolver: Decides attributes both sides changed; see
    ///     ``SyncEngine/init(local:server:device:models:resolver:)``.
    /// - Throws: What opening either store throws, and what
    ///   ``SyncEngine/init(local:server:device:models:resolver:)`` throws.
    public func syncing<ServerConfiguration: DataStoreConfiguration>(
        with server: ServerConfiguration, deviceName: String, models: [any PersistentModel.Type],
        resolver: @escaping SyncConflictResolver = { $0.local }
    ) throws -> SyncEngine<Store, ServerConfiguration.Store>
    where
        ServerConfiguration.Store: HistoryProvidingStore,
        ServerConfiguration.Store.HistoryType.Change: ValueRecordingHistoryChange
    {
        var device = self
        device.schema = Schema(models + [SyncCursor.self])
        var server = server
        if let schema = server.schema {
            if schema.entity(named: SyncCursor.entityName) == nil {
                server.schema = Schema(
                    entities: schema.entities + [SyncCursor.schemaEntity], version: schema.version)
            }
        } else {
            server.schema = device.schema
        }
        return try SyncEngine(
            local: try Store(device), server: try ServerConfiguration.Store(server), device: deviceName,
            models: models, resolver: resolver)
    }
}
