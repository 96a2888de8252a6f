public import DataStoreCore

/// The stores an app's models live in, and the routing of each entity to its store.
///
/// Create one per process and share it; create a ``ModelContext`` from it wherever you work with models.
/// With one configuration every entity lives in that store; with several, each configuration names its
/// entities and every entity must be routed to exactly one store.
public final class ModelContainer: Sendable {
    /// The schema of every model type in the container.
    public let schema: Schema
    /// The configurations, in the order given.
    public let configurations: [ModelConfiguration]
    let stores: [any StoreConnection]
    /// Open or closed, and the operations under way (see ``close()``).
    let lifecycle: ContainerLifecycle
    let storeIndexByEntity: [String: Int]
    /// Each entity's store identifier, looked up on every insert and save.
    let storeIdentifierByEntity: [String: String]
    let modelTypes: ModelTypeRegistry
    /// Signalled after every save of one of the container's contexts in this process: observers of the
    /// container wake at once, before (and whether or not) the store's own signal arrives.
    let localSaves = SignalBroadcaster()
    /// The main context, made on first use.
    @MainActor private var mainContextStorage: ModelContext?

    /// The context for the main actor, with ``ModelContext/autosaveEnabled`` on, as SwiftData's
    /// `mainContext`: changes made on it are saved about ``ModelContext/autosaveDelay`` after an insert, a
    /// delete or an edit of a model whose properties report their changes, at the latest
    /// ``ModelContext/autosaveCheckInterval`` after an edit of a model with plain stored properties, and when
    /// the process exits normally. Failures go to its ``ModelContext/autosaveErrorHandler``.
    @MainActor public var mainContext: ModelContext {
        if let context = mainContextStorage { return context }
        let context = ModelContext(self)
        context.autosaveEnabled = true
        mainContextStorage = context
        return context
    }

    /// Whether ``mainContext`` records undo and redo steps (it then has a ``ModelUndoManager``): SwiftData's
    /// `.modelContainer(for: Trip.self, isUndoEnabled: true)`. `false` by default.
    @MainActor public var isUndoEnabled: Bool {
        get { mainContext.undoManager != nil }
        set {
            guard newValue != isUndoEnabled else { return }
            mainContext.undoManager = newValue ? ModelUndoManager() : nil
        }
    }

    /// Opens the stores and routes each model type to one.
    ///
    /// - Throws: `DataStoreError/invalidConfiguration(reason:)` when configurations share a name or an
    ///   entity, or leave an entity without a store; `DataStoreError/modelTypeNotInContainer(entity:)`
    ///   when a configuration names a type missing from `types`; and whatever a store throws on opening.
    public convenience init(for types: [any PersistentModel.Type], configurations: [ModelConfiguration])
        throws
    {
        try self.init(for: types, version: nil, configurations: configurations)
    }

    /// Opens the stores for `types`, the models of schema `version` when it is known (a schema or a migration
    /// plan gave it): the stores then record it, and refuse to open when they are at a newer version.
    init(
        for types: [any PersistentModel.Type], version: Schema.Version?, configurations: [ModelConfiguration]
    )
        throws
    {
        guard !configurations.isEmpty else {
            throw DataStoreError.invalidConfiguration(
                reason:
                    "a container needs at least one configuration (import DataStoreHistory for the default store)"
            )
        }
        let types = Schema.includingRelatedTypes(types)
        for type in types {
            try type.checkUniqueConstraints()
            try type.checkRelationships()
        }
        let allNames = types.map { $0.entityName }
        if let duplicate = Self.firstDuplicate(allNames) {
            throw DataStoreError.invalidConfiguration(reason: "entity '\(duplicate)' is listed twice")
        }
        if let duplicate = Self.firstDuplicate(configurations.map(\.name)) {
            throw DataStoreError.invalidConfiguration(reason: "two configurations are named '\(duplicate)'")
        }
        var routes: [String: Int] = [:]
        for (index, configuration) in configurations.enumerated() {
            for name in configuration.entityNames ?? [] {
                guard allNames.contains(name) else {
                    throw DataStoreError.modelTypeNotInContainer(entity: name)
                }
                guard routes.updateValue(index, forKey: name) == nil else {
                    throw DataStoreError.invalidConfiguration(
                        reason: "entity '\(name)' is routed to two stores")
                }
            }
        }
        let catchAll = configurations.indices.filter { configurations[$0].entityNames == nil }
        Self.routeRelatedTypes(types, into: &routes, hasCatchAll: catchAll.count == 1)
        for name in allNames where routes[name] == nil {
            guard catchAll.count == 1, let index = catchAll.first else {
                throw DataStoreError.invalidConfiguration(
                    reason: "entity '\(name)' needs exactly one configuration that holds it")
            }
            routes[name] = index
        }
        try Self.checkRelationshipsStayInOneStore(types, routes: routes, configurations: configurations)
        let schema = Schema(types, version: version)
        self.schema = schema
        self.configurations = configurations
        self.storeIndexByEntity = routes
        self.modelTypes = ModelTypeRegistry(types)
        let connections = try configurations.indices.map { index in
            let entities = schema.entities.filter { routes[$0.name] == index }
            return try configurations[index].connect(Schema(entities: entities, version: version))
        }
        let identifiers = connections.map(\.identifier)
        let lifecycle = ContainerLifecycle(stores: identifiers)
        self.lifecycle = lifecycle
        // Every store call is an operation on the open container: after `close()` it throws instead.
        self.stores = connections.map { GatedStoreConnection(inner: $0, lifecycle: lifecycle) }
        self.storeIdentifierByEntity = routes.mapValues { identifiers[$0] }
        if let duplicate = Self.firstDuplicate(stores.map(\.identifier)) {
            throw DataStoreError.invalidConfiguration(reason: "two stores have the identifier '\(duplicate)'")
        }
    }

    /// SwiftData's `ModelContainer(for: schema, configurations: [...])`: opens the stores for the model types
    /// the schema was built from (`Schema([Trip.self, LivingAccommodation.self])`).
    ///
    /// - Throws: `DataStoreError/invalidConfiguration(reason:)` when the schema was built from entities
    ///   rather than model types (the container needs the types to create models), and whatever
    ///   ``init(for:configurations:)-([PersistentModel.],_)`` throws.
    public convenience init(for schema: Schema, configurations: [ModelConfiguration]) throws {
        guard !schema.modelTypes.types.isEmpty || schema.entities.isEmpty else {
            throw DataStoreError.invalidConfiguration(
                reason:
                    "the schema was built from entities, not model types; build it with Schema([Trip.self, …])"
            )
        }
        try self.init(for: schema.modelTypes.types, version: schema.version, configurations: configurations)
    }

    /// SwiftData's `ModelContainer(for:migrationPlan:configurations:)`: migrates each store that records an
    /// earlier version of the plan's models to its last version, stage by stage, then opens the container.
    ///
    /// - Throws: `DataStoreError/invalidMigrationPlan(reason:)` when the plan's versions or stages do not chain
    ///   or a store's version is not in the plan (a newer app wrote it);
    ///   `DataStoreError/incompatibleSchema(store:entity:attribute:reason:)` when a stage's data cannot take
    ///   the next version; `DataStoreError/migrationFailed(store:reason:underlyingError:)` when a stage's
    ///   closure throws. The store is then at the last version it completed.
    public convenience init(
        for types: [any PersistentModel.Type], migrationPlan: (any SchemaMigrationPlan.Type)?,
        configurations: [ModelConfiguration]
    ) throws {
        if let migrationPlan {
            try SchemaMigrator(plan: migrationPlan, configurations: configurations).run()
        }
        // The app's models are the plan's last version: the stores record it.
        try self.init(
            for: types, version: migrationPlan?.schemas.last?.versionIdentifier,
            configurations: configurations)
    }

    /// The identifiers of the container's stores, in configuration order.
    public var storeIdentifiers: [String] { stores.map(\.identifier) }

    /// The store with the given identifier, as its concrete type, for store-specific features.
    public func store<Store: DataStore>(_ identifier: String, as _: Store.Type = Store.self) -> Store? {
        stores.first { $0.identifier == identifier }?.store as? Store
    }

    func connection(forEntity name: String) throws(DataStoreError) -> any StoreConnection {
        guard let index = storeIndexByEntity[name] else { throw .modelTypeNotInContainer(entity: name) }
        return stores[index]
    }

    func connection(named identifier: String) throws(DataStoreError) -> any StoreConnection {
        guard let store = stores.first(where: { $0.identifier == identifier }) else {
            throw .unknownStore(store: identifier)
        }
        return store
    }

    /// Routes a type that no configuration names, and that only relationships brought in, to the store of a
    /// model that relates to it, as SwiftData keeps a configuration's related models with it. With a
    /// catch-all configuration the catch-all takes them instead, as it takes every unnamed type.
    private static func routeRelatedTypes(
        _ types: [any PersistentModel.Type], into routes: inout [String: Int], hasCatchAll: Bool
    ) {
        guard !hasCatchAll else { return }
        var changed = true
        while changed {
            changed = false
            for type in types {
                guard let route = routes[type.entityName] else { continue }
                for related in type.relatedModelTypes where routes[related.entityName] == nil {
                    routes[related.entityName] = route
                    changed = true
                }
            }
        }
    }

    /// Throws when a relationship points to an entity routed to another store: a save commits to one store
    /// at a time, so delete rules and inverses could not be applied atomically (SwiftData does not relate
    /// models across stores either).
    private static func checkRelationshipsStayInOneStore(
        _ types: [any PersistentModel.Type], routes: [String: Int], configurations: [ModelConfiguration]
    ) throws(DataStoreError) {
        for type in types {
            for relationship in type.schemaRelationships
            where routes[relationship.destination] != routes[type.entityName] {
                let other = routes[relationship.destination].map { configurations[$0].name } ?? "?"
                throw .invalidRelationship(
                    entity: type.entityName, relationship: relationship.name,
                    reason:
                        "it points to \(relationship.destination), which lives in another store ('\(other)'); "
                        + "relationships cannot cross stores")
            }
        }
    }

    private static func firstDuplicate(_ names: [String]) -> String? {
        var seen = Set<String>()
        return names.first { !seen.insert($0).inserted }
    }
}
