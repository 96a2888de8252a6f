import Foundation

/// Applies a ``FetchDescriptor`` to candidate snapshots: decode, filter, sort, offset, limit.
///
/// Stores pass the snapshots that can match (all rows of the entity, or fewer after a seek) and get the
/// answer the ``DataStore`` requirements ask for. Without `sortBy`, results come in identifier order, so
/// they are deterministic whatever order the store keeps.
public enum SnapshotQuery {
    /// Runs `descriptor` over `candidates`. Pass the store's rows as `relatedRows` so that a predicate or
    /// sort that follows a relationship (`$0.trip?.name == "Paris"`) reads the related models from them;
    /// without it, relationships read as empty. A predicate that is wholly comparisons on attributes
    /// (``ModelPredicateBounds/isExact``) is decided on the snapshots' values; any other is evaluated on a model
    /// made from each candidate.
    ///
    /// - Throws: ``DataStoreError/predicateEvaluationFailed(store:reason:)`` when the predicate throws, and
    ///   ``DataStoreError/attributeTypeMismatch(entity:attribute:expected:found:)`` when a snapshot does not
    ///   decode.
    ///
    /// Pass `bounds` when the store analysed the predicate already (to pick candidates from an index), so that
    /// it is not analysed twice.
    public static func run<Model: PersistentModel>(
        _ descriptor: FetchDescriptor<Model>, over candidates: some Sequence<DataStoreSnapshot>,
        storeIdentifier: String, relatedRows: (any SnapshotRowSource)? = nil,
        bounds: ModelPredicateBounds<Model>? = nil
    ) throws(DataStoreError) -> [DataStoreSnapshot] {
        let resolver: SnapshotRowResolver? =
            ModelTypeFacts.of(Model.self).hasRelationships ? relatedRows.map(SnapshotRowResolver.init) : nil
        return try run(
            descriptor, over: candidates, storeIdentifier: storeIdentifier, resolver: resolver, bounds: bounds
        )
    }

    /// Runs `descriptor`, resolving relationships through `resolver`.
    static func run<Model: PersistentModel>(
        _ descriptor: FetchDescriptor<Model>, over candidates: some Sequence<DataStoreSnapshot>,
        storeIdentifier: String, resolver: (any RelatedModelResolving)?,
        bounds: ModelPredicateBounds<Model>? = nil
    ) throws(DataStoreError) -> [DataStoreSnapshot] {
        var descriptor = descriptor
        // Arrays, not `AnySequence` over lazy filters: a fetch answered from an index has a candidate or two,
        // and the type-erased wrappers cost more than the filtering.
        var candidates = Array(candidates)
        let bounds = bounds ?? ModelPredicateBounds<Model>(descriptor.predicate)
        if let members = bounds.identifiers {
            // `ids.contains($0.persistentModelID)` (how a context loads related models) needs no model.
            candidates = candidates.filter { members.contains($0.persistentIdentifier) }
            descriptor.predicate = nil
        } else if descriptor.predicate != nil, bounds.isExact, bounds.attributeMembership == nil,
            !bounds.attributeConstraints.isEmpty || bounds.identifier != nil,
            bounds.attributeConstraints.allSatisfy({
                ModelTypeFacts.of(Model.self).valueAttributeNames.contains($0.name)
            })
        {
            // A conjunction of comparisons on attributes is the whole predicate: decide it on the rows' values,
            // as a database store does, without materialising a model per candidate. `PushdownPropertyTests`
            // checks that this agrees with `Predicate.evaluate`.
            let constraints = bounds.attributeConstraints
            let identifier = bounds.identifier
            candidates = candidates.filter { row in
                (identifier == nil || row.persistentIdentifier == identifier)
                    && constraints.allSatisfy {
                        (row.values[$0.name] ?? .null).satisfies($0.relation, $0.value)
                    }
            }
            descriptor.predicate = nil
        }
        if descriptor.predicate == nil, descriptor.sortBy.isEmpty {
            // Nothing to evaluate: identifier order, offset and limit, without decoding a model.
            if candidates.count > 1 {
                candidates.sort { $0.persistentIdentifier < $1.persistentIdentifier }
            }
            let sorted = candidates
            let offset = min(max(descriptor.fetchOffset ?? 0, 0), sorted.count)
            let end = descriptor.fetchLimit.map { min(sorted.count, offset + max($0, 0)) } ?? sorted.count
            return Array(sorted[offset..<end])
        }
        var matches: [(model: Model, snapshot: DataStoreSnapshot)] = []
        for snapshot in candidates {
            let model = try Model(snapshot: snapshot, resolver: resolver)
            if let predicate = descriptor.predicate {
                do {
                    guard try predicate.evaluate(model) else { continue }
                } catch {
                    throw .predicateEvaluationFailed(
                        store: storeIdentifier, reason: String(describing: error))
                }
            }
            matches.append((model, snapshot))
        }
        if descriptor.sortBy.isEmpty {
            matches.sort { $0.snapshot.persistentIdentifier < $1.snapshot.persistentIdentifier }
        } else {
            let comparator = descriptor.sortBy
            matches.sort { lhs, rhs in
                for sort in comparator {
                    switch sort.compare(lhs.model, rhs.model) {
                    case .orderedAscending: return true
                    case .orderedDescending: return false
                    case .orderedSame: continue
                    }
                }
                return lhs.snapshot.persistentIdentifier < rhs.snapshot.persistentIdentifier
            }
        }
        let offset = min(max(descriptor.fetchOffset ?? 0, 0), matches.count)
        let end = descriptor.fetchLimit.map { min(matches.count, offset + max($0, 0)) } ?? matches.count
        return matches[offset..<end].map { $0.snapshot }
    }
}
