/// What a store under test can do; decides which checks apply. Typed flags, never store names.
public struct ConformanceCapabilities: OptionSet, Hashable, Sendable {
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
    /// Several processes may open the store at once (checked by the store's own multi-process tests).
    public static let multiProcess = ConformanceCapabilities(rawValue: 1 << 2)
    /// The store drops old history by a retention policy (checked through `deleteHistory` here).
    public static let retention = ConformanceCapabilities(rawValue: 1 << 3)
    /// The store can fold several saves into one transaction inside a commit window.
    public static let commitWindows = ConformanceCapabilities(rawValue: 1 << 4)
    /// The store conforms to `HistoryObserving`: `historyUpdates(after:)` delivers commits as they happen.
    public static let historyUpdates = ConformanceCapabilities(rawValue: 1 << 5)
}
