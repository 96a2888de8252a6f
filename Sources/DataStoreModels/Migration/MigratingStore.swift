import DataStoreCore

/// A store opened for a migration plan: the store as `SchemaMigrating`, and a configuration that hands the
/// same instance to the containers the plan's stages work through.
struct MigratingStore: Sendable {
    let store: any SchemaMigrating
    let configuration: @Sendable ([any PersistentModel.Type]) -> ModelConfiguration

    /// `nil` for a store that does not record its schema: a plan has nothing to migrate there.
    init?<Store: HistoryProvidingStore>(_ store: Store) {
        guard let migrating = store as? any SchemaMigrating else { return nil }
        self.store = migrating
        self.configuration = { types in ModelConfiguration(store: store, for: types) }
    }
}
