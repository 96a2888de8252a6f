import DataStoreCore

/// How a store moves from any earlier version of an app's models to the latest, as SwiftData's
/// `SchemaMigrationPlan`: the versions in order and a stage between each pair.
///
/// Pass it to ``ModelContainer/init(for:migrationPlan:configurations:)``. On opening, each store that records
/// a version of the plan is migrated stage by stage to the last one; a new or empty store simply starts at the
/// last version.
///
/// # Implementation requirements
///
/// - ``schemas`` lists the versions oldest first, with increasing version identifiers.
/// - ``stages`` holds at most one stage per pair of consecutive versions, from the older to the newer. A pair
///   without a stage migrates lightweight.
public protocol SchemaMigrationPlan {
    /// The versions, oldest first.
    static var schemas: [any VersionedSchema.Type] { get }
    /// The stages between consecutive versions.
    static var stages: [MigrationStage] { get }
}
