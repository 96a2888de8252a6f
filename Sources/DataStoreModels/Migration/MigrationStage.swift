import DataStoreCore

/// One step of a ``SchemaMigrationPlan``, between two consecutive versions, as SwiftData's `MigrationStage`.
///
/// - `lightweight`: the store applies the differences itself (added, removed and renamed attributes, options);
///   an unsafe difference throws `DataStoreError/incompatibleSchema(store:entity:attribute:reason:)`.
/// - `custom`: `willMigrate` runs on a context over the *old* version's models, to change the data so that the
///   new version fits (for example to remove duplicates before `.unique` is added). Its changes are not written
///   when it calls `save()`: they are committed together with the new schema, as one transaction by
///   ``migrationAuthor``, so that a crash leaves the store at the old version without them or at the new version
///   with them. `didMigrate` then runs on a context over the *new* version's models; what it saves is saved as
///   usual.
public enum MigrationStage: @unchecked Sendable {
    // `@unchecked`: the metatypes are immutable and the closures are `@Sendable`; only metatypes of a protocol
    // without `SendableMetatype` keep the compiler from seeing it.
    /// A migration the store applies without code.
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
    /// A migration with code before and after the store applies the new schema.
    case custom(
        fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type,
        willMigrate: (@Sendable (ModelContext) throws -> Void)?,
        didMigrate: (@Sendable (ModelContext) throws -> Void)?)

    /// The author of the transaction a custom stage's `willMigrate` changes are committed as, so that a history
    /// consumer (a sync engine) can recognise migrations.
    public static let migrationAuthor = "DataStoreHistory.migration"

    /// The version the stage starts from.
    public var fromVersion: any VersionedSchema.Type {
        switch self {
        case .lightweight(let from, _), .custom(let from, _, _, _): from
        }
    }

    /// The version the stage ends at.
    public var toVersion: any VersionedSchema.Type {
        switch self {
        case .lightweight(_, let to), .custom(_, let to, _, _): to
        }
    }
}
