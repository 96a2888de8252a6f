import DataStoreCore

/// Runs a ``SchemaMigrationPlan`` over a container's stores before the container opens them: finds the version
/// each store records, then applies the stages from there to the last version, one store at a time.
struct SchemaMigrator {
    let plan: any SchemaMigrationPlan.Type
    let configurations: [ModelConfiguration]

    package func run() throws {
        let versions = plan.schemas
        let stages = try Self.stagesByStep(plan)
        let claimed = Set(configurations.flatMap { $0.entityNames ?? [] })
        for configuration in configurations {
            // Each version's models that live in this store.
            let modelsByVersion = versions.map { version in
                version.models.filter { model in
                    configuration.entityNames.map { $0.contains(model.entityName) }
                        ?? !claimed.contains(model.entityName)
                }
            }
            let schemas = zip(versions, modelsByVersion).map { Schema($1, version: $0.versionIdentifier) }
            try migrate(configuration, schemas: schemas, stages: stages, models: modelsByVersion)
        }
    }

    /// Takes one store from the version it records to the plan's last, following another process that
    /// migrates it at the same time (the app and its widget, updated together): a step that fails because
    /// the store moved on since this process read its version (a stage's changes no longer fit, a target
    /// older than the store) is not an error; the migration goes on from the version the store records now.
    /// A store migrates atomically step by step, so a refused step wrote nothing.
    private func migrate(
        _ configuration: ModelConfiguration, schemas: [Schema], stages: [MigrationStage?],
        models: [[any PersistentModel.Type]]
    ) throws {
        var followed = 0
        while true {
            guard let opened = try configuration.openForMigration(),
                let recorded = try opened.store.recordedSchema(), !recorded.entities.isEmpty
            else { return }
            let start = try Self.startIndex(of: recorded, in: schemas, store: configuration.name)
            var step = start
            do {
                while step < schemas.count - 1 {
                    try migrate(
                        opened, step: step, stage: stages[step], schemas: schemas, models: models,
                        store: configuration.name)
                    step += 1
                }
                return
            } catch {
                // What the store recorded before the failing step: as read, or as this process's last step left it.
                let before = step == start ? recorded.version : schemas[step].version
                let now = try? configuration.openForMigration()?.store.recordedSchema()?.version
                guard followed < 8, let now, now != before else { throw error }
                followed += 1  // another process moved the store on: continue from where it is now
            }
        }
    }

    /// Runs one stage on one store.
    private func migrate(
        _ opened: MigratingStore, step: Int, stage: MigrationStage?, schemas: [Schema],
        models: [[any PersistentModel.Type]], store: String
    ) throws {
        let from = schemas[step]
        let to = schemas[step + 1]
        let name = "\(from.version.map { "\($0)" } ?? "?") → \(to.version.map { "\($0)" } ?? "?")"
        guard case .custom(_, _, let willMigrate, let didMigrate) = stage else {
            try opened.store.migrate(to: to, applying: nil)
            return
        }
        var request: DataStoreSaveChangesRequest?
        if let willMigrate {
            let container = try ModelContainer(
                for: models[step], configurations: [opened.configuration(models[step])])
            let context = ModelContext(container)
            context.defersSaves = true
            context.author = MigrationStage.migrationAuthor
            try Self.running("willMigrate of stage \(name)", store: store) { try willMigrate(context) }
            request = try context.pendingRequests()[opened.store.identifier]
        }
        try opened.store.migrate(to: to, applying: request)
        if let didMigrate {
            let container = try ModelContainer(
                for: models[step + 1], configurations: [opened.configuration(models[step + 1])])
            let context = ModelContext(container)
            context.author = MigrationStage.migrationAuthor
            try Self.running("didMigrate of stage \(name)", store: store) { try didMigrate(context) }
        }
    }

    /// Runs a stage's closure; what it throws becomes `migrationFailed`, carrying the original error.
    private static func running(_ what: String, store: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            throw DataStoreError.migrationFailed(
                store: store, reason: "\(what) threw: \(error)", underlyingError: error)
        }
    }

    /// Where in the plan a store's recorded schema is: by its version, or by its layout when it has none.
    /// A schema the plan does not know is ``DataStoreError/unknownDataStoreSchema(store:reason:)``.
    private static func startIndex(of recorded: Schema, in schemas: [Schema], store: String) throws -> Int {
        let known = schemas.compactMap(\.version).map { "\($0)" }.joined(separator: ", ")
        if let version = recorded.version {
            if let index = schemas.firstIndex(where: { $0.version == version }) { return index }
            if let latest = schemas.last?.version, version > latest {
                throw DataStoreError.unknownDataStoreSchema(
                    store: store,
                    reason:
                        "it is at version \(version), newer than every version in the migration plan (\(known)); a "
                        + "newer version of the app wrote it")
            }
            throw DataStoreError.unknownDataStoreSchema(
                store: store,
                reason: "it is at version \(version), which the migration plan (\(known)) does not list")
        }
        if let index = schemas.lastIndex(where: { $0.storageLayout == recorded.storageLayout }) {
            return index
        }
        throw DataStoreError.unknownDataStoreSchema(
            store: store,
            reason:
                "it records a schema without a version that matches no version of the migration plan (\(known))"
        )
    }

    /// The stage for each step `i` (version `i` to `i + 1`), checking that versions increase and that every
    /// stage joins two consecutive versions.
    private static func stagesByStep(_ plan: any SchemaMigrationPlan.Type) throws -> [MigrationStage?] {
        var versions: [Schema.Version] = []
        for schema in plan.schemas {
            versions.append(schema.versionIdentifier)
        }
        guard !versions.isEmpty else {
            throw DataStoreError.invalidMigrationPlan(reason: "the plan lists no schemas")
        }
        for index in versions.indices.dropFirst() {
            let older = versions[index - 1]
            let newer = versions[index]
            if older >= newer {
                throw DataStoreError.invalidMigrationPlan(
                    reason:
                        "schemas must be listed oldest first with increasing versions; \(newer) follows \(older)"
                )
            }
        }
        var stages: [MigrationStage?] = Array(repeating: nil, count: versions.count - 1)
        for stage in plan.stages {
            let from = stage.fromVersion.versionIdentifier
            let to = stage.toVersion.versionIdentifier
            let index = versions.firstIndex(of: from) ?? versions.count
            if index + 1 >= versions.count || versions[index + 1] != to {
                throw DataStoreError.invalidMigrationPlan(
                    reason:
                        "the stage from \(from) to \(to) does not join two consecutive schemas of the plan")
            }
            if stages[index] != nil {
                throw DataStoreError.invalidMigrationPlan(reason: "two stages migrate from \(from) to \(to)")
            }
            stages[index] = stage
        }
        return stages
    }
}
