@_spi(DataStoreInternals) public import DataStoreCore
import Foundation

/// The current rows of a store, with unique-value indexes, and the rules that turn a save request into
/// changes: the part of a store that every backend needs and none should write twice.
///
/// It enforces the `DataStore` requirements on saves through ``SavePlanner``: unknown entities and
/// attributes, missing models, requests naming a model twice, unique upserts and unique violations.
/// Planning is O(size of the request); it never copies the table.
public struct SnapshotTable: SnapshotRowSource, Sendable {

    /// The store the rows belong to; every resolved identifier must name it.
    public let storeIdentifier: String
    /// The schema, or `nil` to accept any entity without options.
    public let schema: Schema?
    var rowsByEntity: [String: [PersistentIdentifier: DataStoreSnapshot]] = [:]
    private var uniqueOwners: [UniqueKey: PersistentIdentifier] = [:]
    /// Entity → indexed attribute → value → the models holding it (see `Schema/Entity/indexedAttributeNames`).
    private var valueIndex: [String: [String: [SnapshotValue: IndexHolders]]] = [:]
    /// Each entity's unique constraints and the attributes ``valueIndex`` covers, from the schema.
    let rules: [String: EntityRules]
    /// The indexed values in order, for range lookups: sorted on first use after a change, and replaced (not
    /// emptied) when an indexed value changes, so that copies of the table keep their own.
    private var orderedValues = OrderedIndexValues()
    /// Each entity's rows in identifier order, for fetches that want every row in that order: sorted on first
    /// use; the rows are dropped when one changes, the order of identifiers when one is inserted or deleted.
    private var identifierOrder = OrderedRows()

    /// Creates an empty table.
    public init(storeIdentifier: String, schema: Schema?) {
        self.storeIdentifier = storeIdentifier
        self.schema = schema
        rules = EntityRules.table(schema)
    }

    /// The number of rows of every entity.
    public var count: Int { rowsByEntity.values.reduce(0) { $0 + $1.count } }

    /// The number of rows of each entity.
    public var countsByEntity: [String: Int] { rowsByEntity.mapValues(\.count) }

    /// The row with the given identifier.
    public subscript(identifier: PersistentIdentifier) -> DataStoreSnapshot? {
        rowsByEntity[identifier.entityName]?[identifier]
    }

    /// Every row in ascending identifier order (entity by entity: a table's rows all name its store), from the
    /// order the table keeps between fetches: how a checkpoint writes them, without sorting them each time.
    package var rowsInIdentifierOrder: [DataStoreSnapshot] {
        rowsByEntity.keys.sorted().flatMap { entity -> [DataStoreSnapshot] in
            guard let rows = rowsByEntity[entity] else { return [] }
            return rows.count > 1 ? identifierOrder.rows(of: entity, in: rows) : Array(rows.values)
        }
    }

    /// The rows of one entity, in no particular order.
    public func rows(of entityName: String) -> Dictionary<PersistentIdentifier, DataStoreSnapshot>.Values {
        (rowsByEntity[entityName] ?? [:]).values
    }

    /// Validates a save request against the current rows and returns the changes it makes.
    ///
    /// Nothing changes until you pass the plan to `apply(_:)`. The same planning as ``SavePlanner``, with
    /// this table as the row source.
    public func plan(_ request: DataStoreSaveChangesRequest) throws(DataStoreError) -> SavePlan {
        try SavePlanner.plan(
            request, over: self, storeIdentifier: storeIdentifier, schema: schema, rules: rules)
    }

    /// Plans requests to be committed together, in order, each over the rows the earlier successful ones
    /// leave (see ``SavePlanner/plan(_:over:storeIdentifier:schema:)-([DataStoreSaveChangesRequest],_,_,_)``).
    public func plan(_ requests: [DataStoreSaveChangesRequest]) -> [Result<SavePlan, DataStoreError>] {
        SavePlanner.plan(requests, over: self, storeIdentifier: storeIdentifier, schema: schema, rules: rules)
    }

    /// Commits a plan made by ``plan(_:)-(DataStoreSaveChangesRequest)`` on this table's current state (or replays a journaled one).
    public mutating func apply(_ plan: SavePlan) {
        apply(plan.changes)
    }

    /// Commits planned changes in order (a plan's, or a journaled transaction's).
    ///
    /// Consecutive deletes of one entity (a batch delete's), and consecutive inserts of one entity (a bulk
    /// insert's), are applied together: the entity's rows, rules, index and orders are looked up once for all
    /// of them rather than once per row.
    public mutating func apply(_ changes: [PlannedChange]) {
        var start = changes.startIndex
        while start < changes.endIndex {
            let kind = changes[start].kind
            let entity = changes[start].identifier.entityName
            var end = start
            while kind != .update, end < changes.endIndex, changes[end].kind == kind,
                changes[end].identifier.entityName == entity
            {
                end += 1
            }
            if end - start > 1 {
                if kind == .delete {
                    deleteRows(of: entity, changes[start..<end])
                } else {
                    insertRows(of: entity, changes[start..<end])
                }
                start = end
            } else {
                apply(changes[start])
                start += 1
            }
        }
    }

    /// Adds the rows that `inserts` (distinct models of `entity`) make, claiming their unique values and
    /// indexing them: what applying each insert does. An insert over a row that is there (which no plan makes)
    /// replaces it, releasing what the old row held, as ``apply(_:)-(PlannedChange)`` does.
    private mutating func insertRows(of entity: String, _ inserts: ArraySlice<PlannedChange>) {
        let replaced = Self.put(inserts, into: &rowsByEntity[entity, default: [:]])
        if replaced.count < inserts.count {
            if !isKnownUniquelyReferenced(&identifierOrder) || identifierOrder.isUsed {
                identifierOrder = OrderedRows()
            }
        } else if !isKnownUniquelyReferenced(&identifierOrder) || identifierOrder.holdsRows(of: entity) {
            identifierOrder = identifierOrder.droppingRows(of: entity)
        }
        let entityRules = rules[entity]
        if let entityRules, !entityRules.uniqueConstraints.isEmpty {
            for (id, before) in replaced {
                for key in entityRules.uniqueKeys(of: before) where uniqueOwners[key] == id {
                    uniqueOwners[key] = nil
                }
            }
            for index in inserts.indices {
                let change = inserts[index]
                let row = DataStoreSnapshot(persistentIdentifier: change.identifier, values: change.values)
                for key in entityRules.uniqueKeys(of: row) { uniqueOwners[key] = change.identifier }
            }
        }
        guard let attributes = indexedAttributes(of: entity) else { return }
        orderedValues = OrderedIndexValues()
        for name in attributes {
            Self.index(
                inserts, replacing: replaced, by: name,
                in: &valueIndex[entity, default: [:]][name, default: [:]])
        }
    }

    /// Puts the rows of `inserts` into `rows` (one entity's), returning the rows they replaced (none, for a
    /// plan's inserts).
    private static func put(
        _ inserts: ArraySlice<PlannedChange>, into rows: inout [PersistentIdentifier: DataStoreSnapshot]
    ) -> [(PersistentIdentifier, DataStoreSnapshot)] {
        rows.reserveRoom(rows.count + inserts.count)
        var replaced: [(PersistentIdentifier, DataStoreSnapshot)] = []
        // By index: iterating the changes would copy each one (its dictionaries retained).
        for index in inserts.indices {
            let id = inserts[index].identifier
            let row = DataStoreSnapshot(persistentIdentifier: id, values: inserts[index].values)
            if let before = rows.updateValue(row, forKey: id) { replaced.append((id, before)) }
        }
        return replaced
    }

    /// Indexes the inserted rows under their values of attribute `name`, moving a replaced row's entry.
    private static func index(
        _ inserts: ArraySlice<PlannedChange>, replacing replaced: [(PersistentIdentifier, DataStoreSnapshot)],
        by name: String, in index: inout [SnapshotValue: IndexHolders]
    ) {
        for (id, before) in replaced { index[before[attribute: name]]?.remove(id) }
        for position in inserts.indices {
            let change = inserts[position]
            index[change.values[name] ?? .null, default: IndexHolders()].insert(change.identifier)
        }
    }

    /// Removes the rows of `entity` that `deletes` name, with their unique values and index entries: what
    /// applying each delete does, in one pass per structure.
    private mutating func deleteRows(of entity: String, _ deletes: ArraySlice<PlannedChange>) {
        let attributes = indexedAttributes(of: entity).map { Array($0) } ?? []
        // A batch delete names its rows in identifier order: they come out of the kept order in place. Dropping
        // the order instead would release every row it holds (a hundred thousand after a checkpoint). The kept
        // order lets go of them first, so that the table's release below, right after reading each row, is
        // the last one and frees the row while it is in the cache. (A delete of a row that is not there, which
        // no plan makes, drops the order: it is not among the identifiers kept.) An instance a copy of the
        // table shares is replaced instead: an order the copy computes later would be read here.
        if !isKnownUniquelyReferenced(&identifierOrder) {
            identifierOrder = OrderedRows()
        } else if identifierOrder.holdsOrder(of: entity) {
            var identifiers: [PersistentIdentifier] = []
            identifiers.reserveCapacity(deletes.count)
            for index in deletes.indices { identifiers.append(deletes[index].identifier) }
            if !identifierOrder.remove(identifiers, of: entity) { identifierOrder = OrderedRows() }
        }
        let removed = Self.take(
            deletes, from: &rowsByEntity[entity, default: [:]], reading: attributes, rules: rules[entity],
            owners: &uniqueOwners)
        guard !removed.identifiers.isEmpty, !attributes.isEmpty else { return }
        orderedValues = OrderedIndexValues()
        for (position, name) in attributes.enumerated() {
            Self.unindex(
                removed.identifiers, values: removed.values, stride: attributes.count, at: position,
                in: &valueIndex[entity, default: [:]][name, default: [:]])
        }
    }

    /// Takes the rows that `deletes` name out of `rows` (one entity's) and releases the unique values they
    /// hold in `owners`. Returns the identifiers removed, and each one's values of `attributes`, row after row.
    ///
    /// Each row is read once, while at hand, and released as it comes out: rows read again in later passes were
    /// out of the cache by then, in a delete of thousands.
    private static func take(
        _ deletes: ArraySlice<PlannedChange>,
        from rows: inout [PersistentIdentifier: DataStoreSnapshot], reading attributes: [String],
        rules: EntityRules?, owners: inout [UniqueKey: PersistentIdentifier]
    ) -> (identifiers: [PersistentIdentifier], values: [SnapshotValue]) {
        var removed: [PersistentIdentifier] = []
        removed.reserveCapacity(deletes.count)
        var values: [SnapshotValue] = []
        values.reserveCapacity(deletes.count * attributes.count)
        let unique = rules?.uniqueConstraints.isEmpty == false ? rules : nil
        // By index: iterating the changes would copy each one (its dictionaries retained) for its identifier.
        for index in deletes.indices {
            let id = deletes[index].identifier
            guard let row = rows.removeValue(forKey: id) else { continue }
            removed.append(id)
            for name in attributes { values.append(row[attribute: name]) }
            for key in unique?.uniqueKeys(of: row) ?? [] where owners[key] == id { owners[key] = nil }
        }
        return (removed, values)
    }

    /// Removes `identifiers` from `index`, one attribute's value index, given each one's value of the
    /// attribute at `position` in rows of `stride` values (distinct models, each held under its value).
    ///
    /// They come in runs of one value (a batch delete by an indexed equality is one run): a run as long as its
    /// value's holders is all of them, and empties the entry at once instead of removing each identifier.
    private static func unindex(
        _ identifiers: [PersistentIdentifier], values: [SnapshotValue], stride: Int, at position: Int,
        in index: inout [SnapshotValue: IndexHolders]
    ) {
        var start = 0
        while start < identifiers.count {
            let value = values[start * stride + position]
            var end = start + 1
            while end < identifiers.count, values[end * stride + position] == value { end += 1 }
            if index[value]?.count == end - start {
                index[value] = IndexHolders()
            } else {
                for id in identifiers[start..<end] { index[value]?.remove(id) }
            }
            start = end
        }
    }

    /// Commits one planned change.
    public mutating func apply(_ change: PlannedChange) {
        let id = change.identifier
        let before = self[id]
        var after: DataStoreSnapshot?
        switch change.kind {
        case .insert:
            after = DataStoreSnapshot(persistentIdentifier: id, values: change.values)
        case .update:
            var merged = before ?? DataStoreSnapshot(persistentIdentifier: id, values: [:])
            merged.values.merge(change.values) { _, new in new }
            after = merged
        case .delete:
            after = nil
        }
        rowsByEntity[id.entityName, default: [:]][id] = after
        if (before == nil) != (after == nil) {
            if !isKnownUniquelyReferenced(&identifierOrder) || identifierOrder.isUsed {
                identifierOrder = OrderedRows()
            }
        } else if !isKnownUniquelyReferenced(&identifierOrder) || identifierOrder.holdsRows(of: id.entityName)
        {
            // The rows held are stale. And while a copy of the table shares the instance, the copy may fill it
            // with its own rows later, which this table must not read: it takes an instance of its own, with the
            // same order and without this entity's rows.
            identifierOrder = identifierOrder.droppingRows(of: id.entityName)
        }
        // An update of attributes no unique constraint or index covers (the common case) moves neither.
        let keyed = rules[id.entityName]?.keyedAttributeNames ?? []
        if change.kind == .update, before != nil, !change.values.keys.contains(where: keyed.contains) {
            return
        }
        // An update that leaves the unique values as they were touches no owner.
        let released = uniqueKeys(of: before)
        let claimed = uniqueKeys(of: after)
        if released != claimed {
            for key in released where uniqueOwners[key] == id && !claimed.contains(key) {
                uniqueOwners[key] = nil
            }
            for key in claimed {
                uniqueOwners[key] = id
            }
        }
        if let attributes = indexedAttributes(of: id.entityName) {
            for name in attributes {
                let old = before.map { $0[attribute: name] }
                let new = after.map { $0[attribute: name] }
                guard old != new else { continue }
                orderedValues = OrderedIndexValues()
                if let old { valueIndex[id.entityName, default: [:]][name, default: [:]][old]?.remove(id) }
                if let new {
                    valueIndex[id.entityName, default: [:]][name, default: [:]][new, default: IndexHolders()]
                        .insert(id)
                }
            }
        }
    }

    /// The rows a fetch must examine: the one row a `persistentModelID ==` names; else, when the predicate
    /// requires equality or a range (`<`, `<=`, `>`, `>=`, one bound or both) on an indexed attribute, only the
    /// rows holding a value in it (the smallest such set), or for `values.contains($0.attribute)` on an indexed
    /// attribute the rows holding any of the values; else every row of the entity.
    public func candidates<Model: PersistentModel>(for bounds: ModelPredicateBounds<Model>)
        -> [DataStoreSnapshot]
    {
        candidates(of: Model.entityName, bounds: bounds.values).rows
    }

    /// ``candidates(for:)-(ModelPredicateBounds<Model>)``, not generic: the stores call it from code that is
    /// not specialised for the model.
    private func candidates(of entity: String, bounds: PredicateBoundValues, ordered: Bool = false)
        -> SnapshotCandidates
    {
        if let id = bounds.identifier {
            return SnapshotCandidates(rows: self[id].map { [$0] } ?? [], areInIdentifierOrder: true)
        }
        if let ids = bounds.identifiers {
            // Many of the entity's rows (how a context loads the models a fetch's relationships name): keep the
            // rows in order that are among them, rather than sort them afterwards.
            if ids.count >= 64, let rows = rowsByEntity[entity], ids.count * 4 >= rows.count {
                return SnapshotCandidates(
                    rows: identifierOrder.rows(of: entity, in: rows).filter {
                        ids.contains($0.persistentIdentifier)
                    },
                    areInIdentifierOrder: true, satisfyBounds: true)
            }
            return SnapshotCandidates(
                rows: ids.compactMap { $0.entityName == entity ? self[$0] : nil },
                areInIdentifierOrder: false,
                satisfyBounds: true)
        }
        if let holders = indexedEqualityHolders(of: entity, bounds: bounds) {
            return SnapshotCandidates(
                rows: Self.rows(holders, in: rowsByEntity[entity] ?? [:]), areInIdentifierOrder: false,
                satisfyBounds: true)
        }
        if let indexed = indexedAttributes(of: entity), let index = valueIndex[entity] {
            if let membership = bounds.attributeMembership, indexed.contains(membership.name) {
                let rows = rowsByEntity[entity] ?? [:]
                var holders = Set<PersistentIdentifier>()
                for value in membership.values {
                    holders.formUnion(index[membership.name]?[value] ?? IndexHolders())
                }
                return SnapshotCandidates(rows: Self.rows(holders, in: rows), areInIdentifierOrder: false)
            }
            var smallest: IndexHolders?
            for constraint in bounds.attributeConstraints
            where constraint.relation == .equal && indexed.contains(constraint.name) {
                let holders = index[constraint.name]?[constraint.value] ?? IndexHolders()
                if smallest.map({ holders.count < $0.count }) ?? true { smallest = holders }
            }
            // Closures, not `\.name`: a key path into a type nested in a generic one is instantiated at run
            // time on every call, which cost a lookup more than the index did.
            let ranged = Set(
                bounds.attributeConstraints.filter { $0.relation.isOrdering && indexed.contains($0.name) }
                    .map { $0.name })
            for name in ranged.sorted() {
                let constraints = bounds.attributeConstraints.filter {
                    $0.name == name && $0.relation.isOrdering
                }
                let keys = orderedValues.keys(of: entity, name, in: index[name] ?? [:])
                // Keys are in ascending order, so each bound cuts a prefix or a suffix.
                var low = keys.startIndex
                var high = keys.endIndex
                for constraint in constraints {
                    switch constraint.relation {
                    case .greaterThan, .greaterThanOrEqual:
                        low = max(
                            low,
                            keys.partitioningIndex { $0.satisfies(constraint.relation, constraint.value) })
                    default:
                        high = min(
                            high,
                            keys.partitioningIndex { !$0.satisfies(constraint.relation, constraint.value) })
                    }
                }
                var holders = Set<PersistentIdentifier>()
                if low < high {
                    for key in keys[low..<high] { holders.formUnion(index[name]?[key] ?? IndexHolders()) }
                }
                if smallest.map({ holders.count < $0.count }) ?? true { smallest = IndexHolders(holders) }
            }
            if let smallest {
                // Not the whole answer: an equality that decides the bounds alone returned above.
                let rows = rowsByEntity[entity] ?? [:]
                return SnapshotCandidates(
                    rows: Self.rows(smallest, in: rows), areInIdentifierOrder: false, satisfyBounds: false)
            }
        }
        guard ordered, let rows = rowsByEntity[entity], rows.count > 1 else {
            return SnapshotCandidates(
                rows: Array(rows(of: entity)), areInIdentifierOrder: rows(of: entity).count < 2)
        }
        return SnapshotCandidates(
            rows: identifierOrder.rows(of: entity, in: rows), areInIdentifierOrder: true)
    }

    /// The models an index files under the value of an equality on an indexed attribute, when that equality is
    /// the bounds' only constraint: exactly the rows of `entity` that satisfy `bounds`.
    func indexedEqualityHolders(of entity: String, bounds: PredicateBoundValues) -> IndexHolders? {
        guard Self.isDecidedByIndexEquality(bounds), let only = bounds.attributeConstraints.first,
            indexedAttributes(of: entity)?.contains(only.name) == true, let index = valueIndex[entity]
        else { return nil }
        return index[only.name]?[only.value] ?? IndexHolders()
    }

    /// Whether the rows an index files under an equality's value are exactly the rows that satisfy `bounds`:
    /// when that equality is the bounds' only constraint. Not for NaN, which the index files under itself but a
    /// predicate equals to nothing.
    private static func isDecidedByIndexEquality(_ bounds: PredicateBoundValues) -> Bool {
        guard bounds.identifier == nil, bounds.identifiers == nil, bounds.attributeMembership == nil,
            bounds.attributeConstraints.count == 1, let only = bounds.attributeConstraints.first,
            only.relation == .equal
        else { return false }
        if case .double(let value) = only.value, value.isNaN { return false }
        return true
    }

    /// The rows a fetch must examine: ``candidates(for:)-(ModelPredicateBounds<Model>)`` for its predicate,
    /// or, for a fetch without a predicate whose first sort is an indexed integer or date attribute and that
    /// has a limit, only the rows holding the first values in that order (enough for the offset and limit,
    /// with every row tied with the last one).
    ///
    /// Pass `bounds` when the caller analysed the predicate already (it hands them to ``SnapshotQuery`` too).
    public func candidates<Model: PersistentModel>(
        for descriptor: FetchDescriptor<Model>, bounds: ModelPredicateBounds<Model>? = nil
    )
        -> [DataStoreSnapshot]
    {
        selectCandidates(for: descriptor, bounds: bounds).rows
    }

    /// ``candidates(for:bounds:)``, saying whether they come in identifier order: a fetch of every row
    /// (without a predicate, sort or limit) gets them in order, as kept between fetches, and so does a fetch of
    /// many rows by identifier.
    public func selectCandidates<Model: PersistentModel>(
        for descriptor: FetchDescriptor<Model>, bounds: ModelPredicateBounds<Model>? = nil
    ) -> SnapshotCandidates {
        let entity = Model.entityName
        if let bounds, descriptor.fetchLimit == nil {
            // The common case, first: it touches the generic descriptor least. A fetch of everything gets the
            // rows in the order it answers in.
            let everything = descriptor.predicate == nil && descriptor.sortBy.isEmpty
            return candidates(of: entity, bounds: bounds.values, ordered: everything)
        }
        guard descriptor.predicate == nil, let limit = descriptor.fetchLimit,
            let sort = descriptor.sortBy.first, let keyPath = sort.keyPath,
            let attribute = Model.schemaAttribute(for: keyPath),
            ["integer", "date"].contains(attribute.valueKind),
            indexedAttributes(of: entity)?.contains(attribute.name) == true,
            let index = valueIndex[entity]?[attribute.name]
        else {
            return candidates(
                of: entity, bounds: (bounds ?? ModelPredicateBounds<Model>(descriptor.predicate)).values)
        }
        let needed = max(0, descriptor.fetchOffset ?? 0) + max(0, limit)
        let keys = orderedValues.keys(of: entity, attribute.name, in: index)
        let rows = rowsByEntity[entity] ?? [:]
        var result: [DataStoreSnapshot] = []
        for key in sort.order == .forward ? AnySequence(keys) : AnySequence(keys.reversed()) {
            guard result.count < needed else { break }
            // The whole tie group: the query's own sort then orders the ties as a full sort would.
            result += Self.rows(index[key] ?? IndexHolders(), in: rows)
        }
        return SnapshotCandidates(rows: result, areInIdentifierOrder: false)
    }

    /// The rows of `identifiers` found in `rows` (one entity's), in the order of `identifiers`: sized up front,
    /// as an index's holders are thousands at times.
    private static func rows(
        _ identifiers: some Sequence<PersistentIdentifier>, in rows: [PersistentIdentifier: DataStoreSnapshot]
    ) -> [DataStoreSnapshot] {
        var found: [DataStoreSnapshot] = []
        found.reserveCapacity(identifiers.underestimatedCount)
        for id in identifiers {
            if let row = rows[id] { found.append(row) }
        }
        return found
    }

    /// The table, when a query of `Model` may follow relationships to other rows (pass it to ``SnapshotQuery``
    /// as `relatedRows`); `nil` otherwise, which spares a fetch copying the table out of its lock.
    package func relatedRows<Model: PersistentModel>(for _: Model.Type) -> SnapshotTable? {
        ModelTypeFacts.hasRelationships(Model.self) ? self : nil
    }

    /// Removes every row.
    public mutating func removeAll() {
        rowsByEntity = [:]
        uniqueOwners = [:]
        valueIndex = [:]
        orderedValues = OrderedIndexValues()
        identifierOrder = OrderedRows()
    }

    /// The attributes the value index covers for `entity`, or `nil` when it covers none.
    private func indexedAttributes(of entity: String) -> Set<String>? {
        guard let names = rules[entity]?.indexedAttributeNames, !names.isEmpty else { return nil }
        return names
    }

    private func uniqueKeys(of snapshot: DataStoreSnapshot?) -> [UniqueKey] {
        guard let snapshot, let rules = rules[snapshot.persistentIdentifier.entityName] else { return [] }
        return rules.uniqueKeys(of: snapshot)
    }
}

extension SnapshotTable {
    /// The row with the given identifier (``SnapshotRowSource``).
    public func row(for identifier: PersistentIdentifier) -> DataStoreSnapshot? {
        self[identifier]
    }

    /// The holder of unique values, from the table's index (``SnapshotRowSource``).
    public func uniqueHolder(entity: String, attributes: [String], values: [SnapshotValue])
        -> PersistentIdentifier?
    {
        uniqueOwners[UniqueKey(entity: entity, attributes: attributes, values: values)]
    }
}

/// The values of indexed attributes in ascending order, computed on demand. Only values that Swift can order in
/// a predicate are kept (no `nil`, NaN, Booleans, data, identifiers or arrays): those never satisfy a range.
final class OrderedIndexValues: Sendable {
    // Copies of a table share one instance until it changes.
    private let sorted = Lock<[String: [String: [SnapshotValue]]]>([:])

    /// The orderable keys of `index` (one attribute's value index), sorted.
    func keys(of entity: String, _ attribute: String, in index: [SnapshotValue: IndexHolders])
        -> [SnapshotValue]
    {
        sorted.withLock { sorted in
            if let known = sorted[entity]?[attribute] { return known }
            let keys = index.compactMap { key, holders in
                !holders.isEmpty && key.satisfies(.lessThanOrEqual, key) ? key : nil
            }
            .sorted { $0.compare(to: $1) == .orderedAscending }
            sorted[entity, default: [:]][attribute] = keys
            return keys
        }
    }
}

/// Each entity's rows in ascending identifier order, computed on demand: a fetch of every row (the most common
/// fetch of all) then copies one array instead of looking up each row by its identifier.
final class OrderedRows: Sendable {
    // Copies of a table share one instance until a row changes.
    private let sorted: Lock<[String: Entity]>

    private struct Entity {
        var identifiers: [PersistentIdentifier]
        /// The rows in the order of `identifiers`, or `nil` after an update (the order still holds).
        var rows: [DataStoreSnapshot]?
    }

    init() { sorted = Lock([:]) }

    private init(_ entities: [String: Entity]) { sorted = Lock(entities) }

    /// Whether any order was computed (and so may be shared with a copy of the table).
    var isUsed: Bool { sorted.withLock { !$0.isEmpty } }

    /// Whether the instance holds an order of `entity`'s rows.
    func holdsOrder(of entity: String) -> Bool { sorted.withLock { $0[entity] != nil } }

    /// Whether the instance holds rows of `entity`, which an update of one of them makes stale.
    func holdsRows(of entity: String) -> Bool { sorted.withLock { $0[entity]?.rows != nil } }

    /// A new instance with the same orders, without the rows of `entity`.
    func droppingRows(of entity: String) -> OrderedRows {
        var entities = sorted.withLock { $0 }
        entities[entity]?.rows = nil
        return OrderedRows(entities)
    }

    /// Removes `deleted`, identifiers of `entity` listed in the order kept, from that order, in place (moving the
    /// others, not copying them). Returns `false`, changing nothing, when the order of `entity` does not hold
    /// them all in that order; the caller then drops the instance.
    func remove(_ deleted: [PersistentIdentifier], of entity: String) -> Bool {
        sorted.withLock { sorted in
            guard var kept = sorted[entity], !deleted.isEmpty else { return true }
            let positions = Self.positions(of: deleted, in: kept.identifiers)
            guard positions.count == deleted.count else { return false }
            // Out of the dictionary while it changes, so that its arrays are not copied.
            sorted[entity] = nil
            Self.remove(positions, from: &kept.identifiers)
            if kept.rows != nil { Self.remove(positions, from: &kept.rows!) }
            sorted[entity] = kept
            return true
        }
    }

    /// The positions in `identifiers` of `deleted` (a subsequence of it, in its order), in one walk that stops
    /// at the last one; fewer than `deleted.count` when `deleted` is not such a subsequence. The walk reads
    /// the identifiers in place: iterating the array would copy each one, retaining and releasing its three
    /// strings, which cost ten times the comparison on a walk of a hundred thousand.
    static func positions(
        of deleted: [PersistentIdentifier], in identifiers: [PersistentIdentifier]
    ) -> [Int] {
        var positions: [Int] = []
        positions.reserveCapacity(deleted.count)
        identifiers.withUnsafeBufferPointer { kept in
            deleted.withUnsafeBufferPointer { deleted in
                // An empty array may still have a base address: nothing to look for then.
                guard !deleted.isEmpty, var next = deleted.baseAddress else { return }
                let end = next + deleted.count
                for index in kept.indices {
                    // Equality compares the keys first, which tell identifiers apart almost always.
                    guard kept[index] == next.pointee else { continue }
                    positions.append(index)
                    next += 1
                    // The rest of the order holds none of them: no need to walk it.
                    if next == end { break }
                }
            }
        }
        return positions
    }

    /// Removes the elements at `positions` (ascending, distinct) from `elements`, moving the others down a run
    /// at a time: each run between two removed elements is one block move, where a swap per element (or
    /// `Array`'s own removal, which copies with a retain and a release each) moved a hundred thousand elements
    /// one by one. The removed ones are set aside meanwhile and put back at the end, so that every slot stays
    /// initialised, then dropped.
    static func remove<Element>(_ positions: [Int], from elements: inout [Element]) {
        guard let first = positions.first else { return }
        elements.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let removed = UnsafeMutablePointer<Element>.allocate(capacity: positions.count)
            defer { removed.deallocate() }
            var write = first
            for (number, position) in positions.enumerated() {
                (removed + number).moveInitialize(from: base + position, count: 1)
                let next = number + 1 < positions.count ? positions[number + 1] : buffer.count
                let run = next - position - 1
                // Overlapping moves are allowed: the run moves down.
                if run > 0 { (base + write).moveInitialize(from: base + position + 1, count: run) }
                write += run
            }
            (base + write).moveInitialize(from: removed, count: positions.count)
        }
        elements.removeLast(positions.count)
    }

    /// The rows of `rows` (one entity's rows) in identifier order.
    func rows(of entity: String, in rows: [PersistentIdentifier: DataStoreSnapshot]) -> [DataStoreSnapshot] {
        sorted.withLock { sorted in
            if let known = sorted[entity]?.rows { return known }
            guard let identifiers = sorted[entity]?.identifiers else {
                // No order yet: the rows themselves are sorted (sorting their identifiers and looking each
                // row up by it cost a dictionary lookup a row).
                let ordered = IdentifierOrder.sorted(Array(rows.values), by: \.persistentIdentifier)
                sorted[entity] = Entity(identifiers: ordered.map(\.persistentIdentifier), rows: ordered)
                return ordered
            }
            let ordered = identifiers.compactMap { rows[$0] }
            // The order is replaced whenever the set of rows changes; should it ever be stale, sort afresh.
            guard ordered.count == rows.count else {
                sorted[entity] = nil
                return IdentifierOrder.sorted(Array(rows.values), by: \.persistentIdentifier)
            }
            sorted[entity] = Entity(identifiers: identifiers, rows: ordered)
            return ordered
        }
    }
}

extension KeyPathConstraint.Relation {
    /// `<`, `<=`, `>` or `>=`.
    var isOrdering: Bool {
        switch self {
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual: true
        case .equal, .notEqual: false
        }
    }
}
