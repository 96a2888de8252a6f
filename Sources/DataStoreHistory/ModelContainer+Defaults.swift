public import DataStoreCore

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
}
