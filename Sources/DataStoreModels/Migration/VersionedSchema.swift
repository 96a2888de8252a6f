public import DataStoreCore

/// One version of an app's models, as SwiftData's `VersionedSchema`: a version identifier and the model types
/// of that version, usually declared inside the conforming enum.
///
/// ```swift
/// enum SampleTripsSchemaV1: VersionedSchema {
///     static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
///     static var models: [any PersistentModel.Type] { [Trip.self] }
///     final class Trip: PersistentModel { … }
/// }
/// ```
///
/// # Implementation requirements
///
/// - ``versionIdentifier`` is unique within a ``SchemaMigrationPlan`` and grows with each version.
/// - ``models`` lists every model type of the version; the same entity keeps its `PersistentModel/entityName`
///   across versions (nested types called `Trip` in each version all have the entity name `"Trip"`).
public protocol VersionedSchema {
    /// The version, recorded by the stores this version wrote.
    static var versionIdentifier: Schema.Version { get }
    /// The model types of this version.
    static var models: [any PersistentModel.Type] { get }
}

extension VersionedSchema {
    /// The schema of this version's models, with its version identifier.
    public static var schema: Schema { Schema(models, version: versionIdentifier) }
}
