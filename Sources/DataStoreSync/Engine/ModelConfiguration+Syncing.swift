public import DataStoreCore
public import DataStoreModels

extension ModelConfiguration {
    /// The configuration of a container's store that `sync` keeps in step with its server: the seeds'
    /// `ModelConfiguration(…, cloudKitContainerIdentifier:)`, with a server you own.
    ///
    /// The container uses the sync's device store; the app's saves go there and never wait for the network.
    /// Start the sync (``SyncEngine/start()``) once the container is made, and stop it before the app exits.
    ///
    /// - Parameters:
    ///   - sync: The sync whose device store the container uses.
    ///   - types: The model types routed to this store, or `nil` for every type no other configuration
    ///     claims.
    public init<Local, Server>(
        syncing sync: SyncEngine<Local, Server>, for types: [any PersistentModel.Type]? = nil
    ) {
        self.init(store: sync.local, for: types)
    }
}
