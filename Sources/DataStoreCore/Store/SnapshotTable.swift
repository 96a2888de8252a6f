/// The current rows of a store, with unique-value indexes, and the rules that turn a save request into
/// changes: the part of a store that every backend needs and none should write twice.
///
/// It enforces the ``DataStore`` requirements on saves: unknown entities and attributes, missing models,
/// requests naming a model twice, unique upserts and unique violations. Planning is O(size of the
/// request); it never copies the table.
public struct SnapshotTable: Sendable {
    private struct UniqueKey: Hashable, Sendable {
        var entity: String
        var attribute: String
        var value: SnapshotValue
    }

    /// The store the rows belong to; every resolved identifier must name it.
    public let storeIdentifier: String
    /// The schema, or `nil` to accept any entity without options.
    public let schema: Schema?
    private var rowsByEntity: [String: [PersistentIdentifier: DataStoreSnapshot]] = [:]
    private var uniqueOwners: [UniqueKey: PersistentIdentifier] = [:]

    /// Creates an empty table.
    public init(storeIdentifier: String, schema: Schema?) {
        self.storeIdentifier = storeIdentifier
        self.schema = schema
    }

    /// The number of rows of every entity.
    public var count: Int { rowsByEntity.values.reduce(0) { $0 + $1.count } }

    /// The number of rows of each entity.
    public var countsByEntity: [String: Int] { rowsByEntity.mapValues(\.count) }

    /// The row with the given identifier.
    public subscript(identifier: PersistentIdentifier) -> DataStoreSnapshot? {
        rowsByEntity[identifier.entityName]?[identifier]
    }

    /// The rows of one entity, in no particular order.
    public func rows(of entityName: String) -> Dictionary<PersistentIdentifier, DataStoreSnapshot>.Values {
        (rowsByEntity[entityName] ?? [:]).values
    }

    /// Validates a save request against the current rows and returns the changes it makes.
    ///
    /// Nothing changes until you pass the plan to `apply(_:)`.
    public func plan(_ request: DataStoreSaveChangesRequest) throws(DataStoreError) -> SavePlan {
        var planner = Planner(table: self)
        return try planner.plan(request)
    }

    /// Commits a plan made by ``plan(_:)`` on this table's current state (or replays a journaled one).
    public mutating func apply(_ plan: SavePlan) {
        for change in plan.changes {
            apply(change)
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
        for key in uniqueKeys(of: before) where uniqueOwners[key] == id {
            uniqueOwners[key] = nil
        }
        for key in uniqueKeys(of: after) {
            uniqueOwners[key] = id
        }
        rowsByEntity[id.entityName, default: [:]][id] = after
    }

    /// Removes every row.
    public mutating func removeAll() {
        rowsByEntity = [:]
        uniqueOwners = [:]
    }

    private func uniqueKeys(of snapshot: DataStoreSnapshot?) -> [UniqueKey] {
        guard let snapshot, let entity = schema?.entity(named: snapshot.persistentIdentifier.entityName)
        else {
            return []
        }
        return entity.uniqueAttributeNames.compactMap { name in
            let value = snapshot[attribute: name]
            return value == .null ? nil : UniqueKey(entity: entity.name, attribute: name, value: value)
        }
    }

    /// Plans one request over an overlay of the table, so validation never copies or mutates it.
    private struct Planner {
        let table: SnapshotTable
        /// The state after this save of every model it touches; `nil` means deleted.
        var final: [PersistentIdentifier: DataStoreSnapshot?] = [:]
        var owners: [UniqueKey: PersistentIdentifier?] = [:]
        var order: [PersistentIdentifier] = []
        var remapped: [PersistentIdentifier: PersistentIdentifier] = [:]

        init(table: SnapshotTable) {
            self.table = table
        }

        var store: String { table.storeIdentifier }

        func current(_ id: PersistentIdentifier) -> DataStoreSnapshot? {
            if let overlay = final[id] { return overlay }
            return table[id]
        }

        func owner(_ key: UniqueKey) -> PersistentIdentifier? {
            if let overlay = owners[key] { return overlay }
            return table.uniqueOwners[key]
        }

        mutating func plan(_ request: DataStoreSaveChangesRequest) throws(DataStoreError) -> SavePlan {
            var seen = Set<PersistentIdentifier>()
            for snapshot in request.inserted + request.updated + request.deleted {
                try check(snapshot)
                guard seen.insert(snapshot.persistentIdentifier).inserted else {
                    throw .invalidSave(
                        store: store, reason: "model \(snapshot.persistentIdentifier) appears more than once")
                }
            }
            // Deletes first, so a unique value freed by this save can be taken by an insert in it.
            for snapshot in request.deleted {
                let id = snapshot.persistentIdentifier
                guard let existing = current(id) else { throw .modelNotFound(store: store, identifier: id) }
                release(existing)
                final[id] = .some(nil)
            }
            for snapshot in request.inserted {
                try insert(snapshot)
            }
            for snapshot in request.updated {
                let id = snapshot.persistentIdentifier
                guard let existing = current(id) else { throw .modelNotFound(store: store, identifier: id) }
                try write(snapshot, replacing: existing)
            }
            order.append(contentsOf: request.updated.map(\.persistentIdentifier))
            order.append(contentsOf: request.deleted.map(\.persistentIdentifier))
            return SavePlan(changes: changes(), remappedIdentifiers: remapped)
        }

        func check(_ snapshot: DataStoreSnapshot) throws(DataStoreError) {
            let id = snapshot.persistentIdentifier
            guard id.storeIdentifier == store else {
                throw .invalidSave(
                    store: store, reason: "model \(id) names store '\(id.storeIdentifier ?? "nil")'")
            }
            guard let schema = table.schema else { return }
            guard let entity = schema.entity(named: id.entityName) else {
                throw .unknownEntity(store: store, entity: id.entityName)
            }
            if let unknown = snapshot.values.keys.sorted().first(where: { entity.attribute(named: $0) == nil }
            ) {
                throw .invalidSave(store: store, reason: "\(id.entityName) has no attribute '\(unknown)'")
            }
        }

        mutating func insert(_ snapshot: DataStoreSnapshot) throws(DataStoreError) {
            let proposed = snapshot.persistentIdentifier
            if current(proposed) != nil {
                throw .invalidSave(store: store, reason: "model \(proposed) is already in the store")
            }
            // An insert whose unique value is taken becomes an update of the owner: the seeds' upsert.
            let holders = Set(uniqueKeys(of: snapshot).compactMap { owner($0) })
            guard holders.count <= 1 else {
                let key = uniqueKeys(of: snapshot).first { owner($0) != nil }
                throw .uniqueConstraintViolation(
                    store: store, entity: proposed.entityName, attribute: key?.attribute ?? "?",
                    value: "\(key.map(\.value.userDescription) ?? "?") (held by several models)")
            }
            if let holder = holders.first, let existing = current(holder) {
                remapped[proposed] = holder
                var merged = snapshot
                merged.persistentIdentifier = holder
                try write(merged, replacing: existing)
                order.append(holder)
            } else {
                try write(snapshot, replacing: nil)
                order.append(proposed)
            }
        }

        /// Records `snapshot` as the new state of its model, moving its unique values.
        mutating func write(_ snapshot: DataStoreSnapshot, replacing existing: DataStoreSnapshot?)
            throws(DataStoreError)
        {
            let id = snapshot.persistentIdentifier
            for key in uniqueKeys(of: snapshot) {
                if let holder = owner(key), holder != id {
                    throw .uniqueConstraintViolation(
                        store: store, entity: id.entityName, attribute: key.attribute,
                        value: key.value.userDescription)
                }
            }
            if let existing { release(existing) }
            for key in uniqueKeys(of: snapshot) { owners[key] = .some(id) }
            final[id] = .some(snapshot)
        }

        mutating func release(_ snapshot: DataStoreSnapshot) {
            for key in uniqueKeys(of: snapshot) where owner(key) == snapshot.persistentIdentifier {
                owners[key] = .some(nil)
            }
        }

        func uniqueKeys(of snapshot: DataStoreSnapshot) -> [UniqueKey] {
            table.uniqueKeys(of: snapshot)
        }

        /// Folds each touched model's original row and final state into at most one change.
        func changes() -> [PlannedChange] {
            var emitted = Set<PersistentIdentifier>()
            var result: [PlannedChange] = []
            for id in order where emitted.insert(id).inserted {
                let before = table[id]
                let after = final[id] ?? nil
                switch (before, after) {
                case (nil, let after?):
                    result.append(PlannedChange(kind: .insert, identifier: id, values: after.values))
                case (let before?, let after?):
                    let changed = before.changedAttributes(to: after)
                    guard !changed.isEmpty else { continue }
                    let values = Dictionary(uniqueKeysWithValues: changed.map { ($0, after[attribute: $0]) })
                    result.append(
                        PlannedChange(
                            kind: .update, identifier: id, values: values, updatedAttributes: changed))
                case (let before?, nil):
                    result.append(
                        PlannedChange(kind: .delete, identifier: id, tombstone: tombstone(of: before)))
                case (nil, nil):
                    continue
                }
            }
            return result
        }

        func tombstone(of snapshot: DataStoreSnapshot) -> [String: SnapshotValue] {
            let names =
                table.schema?.entity(named: snapshot.persistentIdentifier.entityName)?
                .preservedAttributeNames ?? []
            return Dictionary(uniqueKeysWithValues: names.map { ($0, snapshot[attribute: $0]) })
        }
    }
}
