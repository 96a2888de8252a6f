public import DataStoreCore
import Foundation

/// What a store can run natively of a model fetch: the predicate's constraints, whether they are the whole
/// predicate, the sort as attribute names, the offset and the limit. A database store turns an exact
/// pushdown into one query (`WHERE`, `ORDER BY`, `OFFSET`, `LIMIT`) and skips Swift evaluation; otherwise it
/// narrows its candidates with the constraints and hands them to ``SnapshotQuery``.
///
/// ```swift
/// let pushdown = FetchPushdown(request.descriptor)
/// if pushdown.isExact { return try runNatively(pushdown) }   // WHERE … ORDER BY … LIMIT …
/// let candidates = try rowsMatching(pushdown.bounds)         // a necessary condition only
/// return try SnapshotQuery.run(request.descriptor, over: candidates, storeIdentifier: identifier)
/// ```
public struct FetchPushdown<Model: PersistentModel>: Sendable {
    /// One sort key: an attribute and its direction.
    public struct SortKey: Hashable, Sendable {
        /// The attribute's name.
        public var attribute: String
        /// Ascending (`forward`) or descending.
        public var ascending: Bool

        /// Creates a sort key.
        public init(attribute: String, ascending: Bool) {
            self.attribute = attribute
            self.ascending = ascending
        }
    }

    /// The identifier and attribute constraints, and whether they are the whole predicate.
    public var bounds: ModelPredicateBounds<Model>
    /// The sort as attribute keys, compared as `SnapshotValue.compare(to:)` does (`nil` first, strings by
    /// Unicode scalars); ties, and a fetch without a sort, are ordered by persistent identifier. `nil` when
    /// a sort descriptor names something other than an attribute or compares strings with a localized
    /// comparator: then only Swift can sort.
    public var sort: [SortKey]?
    /// How many matches to skip.
    public var offset: Int
    /// How many matches to return at most.
    public var limit: Int?

    /// Whether a store may answer the whole fetch natively: filter by ``bounds``, order by ``sort`` then by
    /// identifier, skip ``offset``, take ``limit``.
    public var isExact: Bool { bounds.isExact && sort != nil }

    /// Analyses a fetch descriptor.
    public init(_ descriptor: FetchDescriptor<Model>) {
        bounds = ModelPredicateBounds(descriptor.predicate)
        offset = max(descriptor.fetchOffset ?? 0, 0)
        limit = descriptor.fetchLimit.map { max($0, 0) }
        var keys: [SortKey] = []
        for descriptor in descriptor.sortBy {
            guard let keyPath = descriptor.keyPath, let attribute = Model.schemaAttribute(for: keyPath),
                descriptor.stringComparator == nil || descriptor.stringComparator == .lexical
            else {
                sort = nil
                return
            }
            keys.append(SortKey(attribute: attribute.name, ascending: descriptor.order == .forward))
        }
        sort = keys
    }
}
