public import DataStoreCore
public import DataStoreModels

extension ModelContainer {
    /// SwiftData's most common container line: `ModelContainer(for: Trip.self)` opens one durable store, a
    /// JSON file store named `default` in the program's data directory
    /// (``ModelConfiguration/defaultDirectory(program:)``), unless configurations say otherwise.
    public convenience init(for types: any PersistentModel.Type..., configurations: ModelConfiguration...)
        throws
    {
        try self.init(
            for: types, configurations: configurations.isEmpty ? [ModelConfiguration()] : configurations)
    }

    /// `ModelContainer(for: [Trip.self, LivingAccommodation.self])`: the default durable store for the types.
    public convenience init(for types: [any PersistentModel.Type]) throws {
        try self.init(for: types, configurations: [ModelConfiguration()])
    }

    /// `ModelContainer(for: schema, configurations: …)` with SwiftData's variadic configurations: the default
    /// durable store when none are given.
    public convenience init(for schema: Schema, configurations: ModelConfiguration...) throws {
        try self.init(
            for: schema, configurations: configurations.isEmpty ? [ModelConfiguration()] : configurations)
    }

    /// The seeds' `ModelContainer(for: Trip.self, migrationPlan: SampleTripsMigrationPlan.self)`: the default
    /// durable store (unless configurations say otherwise), migrated by the plan before it opens.
    public convenience init(
        for types: any PersistentModel.Type..., migrationPlan: (any SchemaMigrationPlan.Type)?,
        configurations: ModelConfiguration...
    ) throws {
        try self.init(
            for: types, migrationPlan: migrationPlan,
            configurations: configurations.isEmpty ? [ModelConfiguration()] : configurations)
    }
}
