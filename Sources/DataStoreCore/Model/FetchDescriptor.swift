public import Foundation

/// Which models to fetch and in what order: the counterpart of SwiftData's `FetchDescriptor`.
public struct FetchDescriptor<Model: PersistentModel>: Sendable {
    /// The condition a model must meet, or `nil` for all.
    public var predicate: Predicate<Model>?
    /// The sort order; empty means identifier order.
    public var sortBy: [SortDescriptor<Model>]
    /// How many matches to skip before the first returned, or `nil` for none.
    public var fetchOffset: Int?
    /// The most models to return, or `nil` for no limit.
    public var fetchLimit: Int?
    /// Whether a context's fetch sees its own unsaved inserts, changes and deletes (`true`, as in SwiftData),
    /// or only what is saved in the store (`false`).
    public var includePendingChanges = true
    /// Relationships to load with the fetch, as SwiftData's `relationshipKeyPathsForPrefetching`: each costs
    /// one more store request for all the fetched models together. Without it, a relationship loads (for all
    /// the fetched models at once) when it is first read.
    public nonisolated(unsafe) var relationshipKeyPathsForPrefetching: [PartialKeyPath<Model>] = []
    // `nonisolated(unsafe)`: key paths are immutable values; `PartialKeyPath` is just not marked `Sendable`.

    /// Creates a descriptor.
    public init(
        predicate: Predicate<Model>? = nil, sortBy: [SortDescriptor<Model>] = [], fetchOffset: Int? = nil,
        fetchLimit: Int? = nil
    ) {
        self.predicate = predicate
        self.sortBy = sortBy
        self.fetchOffset = fetchOffset
        self.fetchLimit = fetchLimit
    }
}
