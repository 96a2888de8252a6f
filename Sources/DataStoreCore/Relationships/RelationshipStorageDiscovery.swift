/// Finds the storage of a `@Relationship` property from the property's key path.
///
/// A relationship's declaration names the property (`\.livingAccommodation`), but reading it would load the
/// related models; snapshots need the identifiers without loading. The wrapper's getter reports its storage
/// key path while a discovery is under way, so reading the property once on a blank instance reveals it.
final class RelationshipStorageDiscovery: @unchecked Sendable {
    // `@unchecked`: each instance is used by one thread, inside `find`.
    @TaskLocal static var current: RelationshipStorageDiscovery?

    var storageKeyPath: AnyKeyPath?

    /// The storage key path of the relationship at `keyPath`, or `nil` when the property is not a
    /// `@Relationship`.
    static func find<Model: PersistentModel>(_ keyPath: AnyKeyPath, in _: Model.Type) -> AnyKeyPath? {
        let discovery = RelationshipStorageDiscovery()
        let blank = Model()
        $current.withValue(discovery) {
            _ = blank[keyPath: keyPath]
        }
        return discovery.storageKeyPath
    }
}
