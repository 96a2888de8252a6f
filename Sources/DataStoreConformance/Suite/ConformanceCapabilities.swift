/// What a store under test can do; decides which checks apply. Typed flags, never store names; every flag
/// gates at least one check.
public struct ConformanceCapabilities: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The bit mask.
    public var rawValue: Int

    /// Creates capabilities from a bit mask.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The store accepts inserts only and rejects updates and deletes with `unsupportedChange`.
    public static let insertOnly = ConformanceCapabilities(rawValue: 1 << 0)
    /// Data, history and tokens survive closing and reopening the store at the same location.
    public static let durable = ConformanceCapabilities(rawValue: 1 << 1)
    /// Several instances (in one process or several) may open the same store at once, and each sees what
    /// the others commit: `secondInstanceSeesCommits` opens the store twice. A store's own tests should still
    /// run real processes.
    public static let multiProcess = ConformanceCapabilities(rawValue: 1 << 2)
    /// The store conforms to `HistoryObserving`: `historyUpdates(after:)` delivers commits as they happen.
    public static let historyUpdates = ConformanceCapabilities(rawValue: 1 << 5)
    /// The store conforms to `DataStoreBatching`: `delete(_:)` deletes by predicate.
    public static let batchDeletes = ConformanceCapabilities(rawValue: 1 << 6)

    /// The store records previous values (`HistoryChange/previousValues`) for attributes marked
    /// `.preservePreviousValue`. Stores built on `DataStoreKit`'s `SavePlanner` get them for free.
    public static let previousValues = ConformanceCapabilities(rawValue: 1 << 7)

    /// `[.durable, .historyUpdates]`, for messages.
    public var description: String {
        let names: [(ConformanceCapabilities, String)] = [
            (.insertOnly, ".insertOnly"), (.durable, ".durable"), (.multiProcess, ".multiProcess"),
            (.historyUpdates, ".historyUpdates"), (.batchDeletes, ".batchDeletes"),
            (.previousValues, ".previousValues"),
        ]
        return "[" + names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
    }
}
