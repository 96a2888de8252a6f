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

    private var reports = 0

    /// Called by the `@Attribute` getter.
    static func noteReport() {
        guard underWay.load(ordering: .relaxed) > 0 else { return }
        discovery?.reports += 1
    }

    /// Whether every attribute of `Model` is an `@Attribute` or a `@Relationship`, so that its instances
    /// report every change themselves.
    package static func reportsChanges<Model: PersistentModel>(_: Model.Type) -> Bool {
        let key = ObjectIdentifier(Model.self)
        if let answer = known.withLock({ $0[key] }) { return answer }
        let answer = discover(Model.self)
        known.withLock { $0[key] = answer }
        return answer
    }

    private static func discover<Model: PersistentModel>(_: Model.Type) -> Bool {
        guard Model.self is AnyObject.Type else { return false }
        let blank = Model()
        let found = ChangeReportingDiscovery()
        underWay.add(1, ordering: .relaxed)
        defer { underWay.subtract(1, ordering: .relaxed) }
        return $discovery.withValue(found) {
            for attribute in Model.schemaAttributes {
                if let relationship = attribute.relationship {
                    guard relationship.identifiers(blank) != nil else { return false }
                    continue
                }
                let before = found.reports
                _ = attribute.value(of: blank)
                guard found.reports > before else { return false }
            }
            return true
        }
    }
}
