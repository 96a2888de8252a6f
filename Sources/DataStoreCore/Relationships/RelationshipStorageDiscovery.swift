import Synchronization

/// Finds the storage of a `@Relationship` property from the property's key path.
///
/// A relationship's declaration names the property (`\.livingAccommodation`), but reading it would load the
/// related models; snapshots need the identifiers without loading. The wrapper's getter reports its storage
/// key path while a discovery is under way, so reading the property once on a blank instance reveals it.
@usableFromInline
final class RelationshipStorageDiscovery: @unchecked Sendable {
    // `@unchecked`: each instance is used by one thread, inside `find`.
    @TaskLocal private static var discovery: RelationshipStorageDiscovery?
    /// How many discoveries are under way in the process: every relationship read checks it, and reading an
    /// atomic costs far less than reading a task-local value.
    private static let underWay = Atomic<Int>(0)

    /// The discovery under way on this thread, if any.
    @usableFromInline
    static var current: RelationshipStorageDiscovery? {
        underWay.load(ordering: .relaxed) == 0 ? nil : discovery
    }

    @usableFromInline var storageKeyPath: AnyKeyPath?

    /// The storage key path of the relationship at `keyPath`, or `nil` when the property is not a
    /// `@Relationship`.
    static func find<Model: PersistentModel>(_ keyPath: AnyKeyPath, in _: Model.Type) -> AnyKeyPath? {
        let found = RelationshipStorageDiscovery()
        let blank = Model()
        underWay.add(1, ordering: .relaxed)
        defer { underWay.subtract(1, ordering: .relaxed) }
        $discovery.withValue(found) {
            _ = blank[keyPath: keyPath]
        }
        return found.storageKeyPath
    }
}
