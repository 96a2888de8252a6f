import Synchronization

/// Finds out whether a model type's properties report their changes: reads each attribute of a blank instance
/// and counts the reads that went through an `@Attribute` getter. The answer is kept per type.
package final class ChangeReportingDiscovery: @unchecked Sendable {
    // `@unchecked`: each instance is used by one thread, inside `reportsChanges`.
    @TaskLocal private static var discovery: ChangeReportingDiscovery?
    /// How many discoveries are under way in the process: every attribute read checks it, and reading an
    /// atomic costs far less than reading a task-local value.
    private static let underWay = Atomic<Int>(0)
    private static let known = Lock<[ObjectIdentifier: Bool]>([:])
    /// Each type's `@Attribute` storage key paths by attribute position, found by the same reads.
    private static let storages = Lock<[ObjectIdentifier: StoragePaths]>([:])

    private struct StoragePaths: @unchecked Sendable {
        // `@unchecked`: key paths are immutable.
        let paths: [Int: AnyKeyPath]
    }

    private var reports = 0
    private var lastStorage: AnyKeyPath?

    /// Called by the `@Attribute` getter, with the key path of the wrapper's storage.
    static func noteReport(storage: AnyKeyPath) {
        guard underWay.load(ordering: .relaxed) > 0, let discovery else { return }
        discovery.reports += 1
        discovery.lastStorage = storage
    }

    /// The key paths of the `@Attribute` wrappers that store `Model`'s attributes, by position in
    /// `schemaAttributes`: a fetch writes a new model's values there directly.
    package static func attributeStorages<Model: PersistentModel>(_: Model.Type) -> [Int: AnyKeyPath] {
        _ = reportsChanges(Model.self)
        return storages.withLock { $0[ObjectIdentifier(Model.self)]?.paths ?? [:] }
    }

    /// Whether every attribute of `Model` is an `@Attribute` or a `@Relationship`, so that its instances
    /// report every change themselves.
    package static func reportsChanges<Model: PersistentModel>(_: Model.Type) -> Bool {
        let key = ObjectIdentifier(Model.self)
        if let answer = known.withLock({ $0[key] }) { return answer }
        var storage: [Int: AnyKeyPath] = [:]
        let answer = discover(Model.self, storage: &storage)
        let found = StoragePaths(paths: storage)
        storages.withLock { $0[key] = found }
        known.withLock { $0[key] = answer }
        return answer
    }

    /// Reads every attribute of a blank instance; `storage` receives the wrapper storage of each attribute
    /// that is an `@Attribute`, whatever the answer.
    private static func discover<Model: PersistentModel>(_: Model.Type, storage: inout [Int: AnyKeyPath])
        -> Bool
    {
        guard Model.self is AnyObject.Type else { return false }
        let blank = Model()
        let found = ChangeReportingDiscovery()
        underWay.add(1, ordering: .relaxed)
        defer { underWay.subtract(1, ordering: .relaxed) }
        var reportsAll = true
        $discovery.withValue(found) {
            for (position, attribute) in Model.schemaAttributes.enumerated() {
                if let relationship = attribute.relationship {
                    if relationship.identifiers(blank) == nil { reportsAll = false }
                    continue
                }
                let before = found.reports
                found.lastStorage = nil
                _ = attribute.value(of: blank)
                if found.reports > before, let path = found.lastStorage {
                    storage[position] = path
                } else {
                    reportsAll = false
                }
            }
        }
        return reportsAll
    }
}
