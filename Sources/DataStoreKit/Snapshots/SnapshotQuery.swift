public import DataStoreCore
import Foundation

/// Applies a `FetchDescriptor` to candidate snapshots: decode, filter, sort, offset, limit.
///
/// Stores pass the snapshots that can match (all rows of the entity, or fewer after a seek) and get the
/// answer the `DataStore` requirements ask for. Without `sortBy`, results come in identifier order, so
/// they are deterministic whatever order the store keeps.
public enum SnapshotQuery {
    /// Runs `descriptor` over `candidates`. Pass the store's rows as `relatedRows` so that a predicate or
    /// sort that follows a relationship (`$0.trip?.name == "Paris"`) reads the related models from them;
    /// without it, relationships read as empty. A predicate that is wholly comparisons on attributes
    /// (``ModelPredicateBounds/isExact``) is decided on the snapshots' values; any other is evaluated on a model
    /// made from each candidate.
    ///
    /// - Throws: `DataStoreError/predicateEvaluationFailed(store:reason:)` when the predicate throws, and
    ///   `DataStoreError/attributeTypeMismatch(entity:attribute:expected:found:)` when a snapshot does not
    ///   decode.
    ///
    /// Pass `bounds` when the store analysed the predicate already (to pick candidates from an index), so that
    /// it is not analysed twice, and `candidatesInIdentifierOrder` when the candidates come in ascending
    /// identifier order already (``SnapshotCandidates/areInIdentifierOrder``), so that a
    /// fetch without `sortBy` does not sort them again.
    public static func run<Model: PersistentModel>(
        _ descriptor: FetchDescriptor<Model>, over candidates: some Sequence<DataStoreSnapshot>,
        storeIdentifier: String, relatedRows: (any SnapshotRowSource)? = nil,
        bounds: ModelPredicateBounds<Model>? = nil, candidatesInIdentifierOrder: Bool = false
    ) throws(DataStoreError) -> [DataStoreSnapshot] {
        try run(
            descriptor,
            candidates: SnapshotCandidates(
                rows: Array(candidates), areInIdentifierOrder: candidatesInIdentifierOrder),
            storeIdentifier: storeIdentifier, relatedRows: relatedRows, bounds: bounds)
    }

    /// Runs `descriptor` over the candidates a ``SnapshotTable`` selected
    /// (``SnapshotTable/selectCandidates(for:bounds:)``), as
    /// ``run(_:over:storeIdentifier:relatedRows:bounds:candidatesInIdentifierOrder:)`` does, using what the
    /// table knows of them: their order, and whether they satisfy the predicate's bounds already.
    public static func run<Model: PersistentModel>(
        _ descriptor: FetchDescriptor<Model>, candidates: SnapshotCandidates, storeIdentifier: String,
        relatedRows: (any SnapshotRowSource)? = nil, bounds: ModelPredicateBounds<Model>? = nil
    ) throws(DataStoreError) -> [DataStoreSnapshot] {
        let resolver: SnapshotRowResolver? =
            ModelTypeFacts.hasRelationships(Model.self) ? relatedRows.map(SnapshotRowResolver.init) : nil
        // The models made to evaluate the query and the resolver hold each other; the answer is snapshots.
        defer { resolver?.forgetModels() }
        return try run(
            descriptor, over: candidates.rows, storeIdentifier: storeIdentifier, resolver: resolver,
            bounds: bounds, candidatesInIdentifierOrder: candidates.areInIdentifierOrder,
            candidatesSatisfyBounds: candidates.satisfyBounds)
    }

    /// Runs `descriptor`, resolving relationships through `resolver`.
    package static func run<Model: PersistentModel>(
        _ descriptor: FetchDescriptor<Model>, over candidates: some Sequence<DataStoreSnapshot>,
        storeIdentifier: String, resolver: (any RelatedModelResolving)?,
        bounds: ModelPredicateBounds<Model>? = nil, candidatesInIdentifierOrder: Bool = false,
        candidatesSatisfyBounds: Bool = false
    ) throws(DataStoreError) -> [DataStoreSnapshot] {
        try OpaqueAttributeUse.check(descriptor, store: storeIdentifier)
        // Arrays, not `AnySequence` over lazy filters: a fetch answered from an index has a candidate or two,
        // and the type-erased wrappers cost more than the filtering.
        var candidates = Array(candidates)
        // The predicate is copied only when it is evaluated: a copy of a generic value costs metadata lookups.
        var evaluatesPredicate = descriptor.predicate != nil
        let bounds = bounds?.values ?? ModelPredicateBounds<Model>(descriptor.predicate).values
        if let members = bounds.identifiers {
            // `ids.contains($0.persistentModelID)` (how a context loads related models) needs no model, and
            // candidates picked by those identifiers need no check.
            if !candidatesSatisfyBounds {
                candidates = candidates.filter { members.contains($0.persistentIdentifier) }
            }
            evaluatesPredicate = false
        } else if evaluatesPredicate,
            isDecidedOnValues(bounds, attributes: ModelTypeFacts.of(Model.self).valueAttributeNames)
        {
            // A conjunction of comparisons on attributes is the whole predicate: decide it on the rows' values,
            // as a database store does, without materialising a model per candidate (nor checking candidates an
            // index picked by the one comparison). `PushdownPropertyTests` checks that this agrees with
            // `Predicate.evaluate`.
            if !candidatesSatisfyBounds {
                candidates = matching(candidates, identifier: bounds.identifier, bounds.attributeConstraints)
            }
            evaluatesPredicate = false
        }
        if !evaluatesPredicate, descriptor.sortBy.isEmpty {
            // Filtering above keeps the candidates' order.
            return candidatesInIdentifierOrder
                ? window(candidates, offset: descriptor.fetchOffset, limit: descriptor.fetchLimit)
                : inIdentifierOrder(
                    consume candidates, offset: descriptor.fetchOffset, limit: descriptor.fetchLimit)
        }
        return try evaluated(
            descriptor, predicate: evaluatesPredicate ? descriptor.predicate : nil, over: candidates,
            storeIdentifier: storeIdentifier, resolver: resolver)
    }

    /// Whether `bounds` are the whole predicate and compare only `attributes` (no relationship) or the
    /// identifier.
    private static func isDecidedOnValues(_ bounds: PredicateBoundValues, attributes: Set<String>) -> Bool {
        bounds.isExact && bounds.attributeMembership == nil
            && (!bounds.attributeConstraints.isEmpty || bounds.identifier != nil)
            && bounds.attributeConstraints.allSatisfy { attributes.contains($0.name) }
    }

    /// The rows with `identifier` (when given) whose values satisfy every constraint. Not generic, like the
    /// two helpers below: a fetch answered from an index spends its time here, and generic code that the
    /// compiler does not specialise for the model looks up type metadata at every step.
    private static func matching(
        _ candidates: [DataStoreSnapshot], identifier: PersistentIdentifier?,
        _ constraints: [ModelAttributeConstraint]
    ) -> [DataStoreSnapshot] {
        func matches(_ row: DataStoreSnapshot) -> Bool {
            guard identifier == nil || row.persistentIdentifier == identifier else { return false }
            for constraint in constraints
            where !(row.values[constraint.name] ?? .null).satisfies(constraint.relation, constraint.value) {
                return false
            }
            return true
        }
        // Candidates from an index often all match: then they are the answer, not copied row by row.
        guard let firstMiss = candidates.firstIndex(where: { !matches($0) }) else { return candidates }
        var kept = Array(candidates[..<firstMiss])
        for row in candidates[(firstMiss + 1)...] where matches(row) { kept.append(row) }
        return kept
    }

    /// Nothing to evaluate: identifier order, offset and limit, without decoding a model.
    private static func inIdentifierOrder(
        _ candidates: consuming [DataStoreSnapshot], offset: Int?, limit: Int?
    ) -> [DataStoreSnapshot] {
        window(
            IdentifierOrder.sorted(consume candidates, by: \.persistentIdentifier), offset: offset,
            limit: limit)
    }

    /// The elements from `offset` on, at most `limit` of them (negative values count as zero).
    private static func window<Element>(_ elements: [Element], offset: Int?, limit: Int?) -> [Element] {
        let start = min(max(offset ?? 0, 0), elements.count)
        let end = limit.map { min(elements.count, start + max($0, 0)) } ?? elements.count
        return start == 0 && end == elements.count ? elements : Array(elements[start..<end])
    }

    /// Decodes a model per candidate, keeps those `predicate` accepts and sorts them by `descriptor`.
    private static func evaluated<Model: PersistentModel>(
        _ descriptor: FetchDescriptor<Model>, predicate: Predicate<Model>?,
        over candidates: [DataStoreSnapshot],
        storeIdentifier: String, resolver: (any RelatedModelResolving)?
    ) throws(DataStoreError) -> [DataStoreSnapshot] {
        var matches: [(model: Model, snapshot: DataStoreSnapshot)] = []
        for snapshot in candidates {
            let model = try Model(snapshot: snapshot, resolver: resolver)
            if let predicate {
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
            matches = IdentifierOrder.sorted(consume matches, by: \.snapshot.persistentIdentifier)
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
        return window(matches, offset: descriptor.fetchOffset, limit: descriptor.fetchLimit).map(\.snapshot)
    }
}
