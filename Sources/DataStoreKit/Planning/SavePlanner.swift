public import DataStoreCore

/// Turns a save request into the changes it makes, reading only the rows the save touches from a
/// ``SnapshotRowSource``: the models the request names (by identifier) and the holders of its unique values
/// (by value). It enforces the `DataStore` requirements on saves: unknown entities and attributes, missing
/// models, requests naming a model twice, unique upserts and unique violations. Nothing is written: the
/// store commits the returned plan.
public enum SavePlanner {
    /// Plans `request` against the rows of `source`.
    ///
    /// - Parameters:
    ///   - request: The save to plan.
    ///   - source: The store's committed rows.
    ///   - storeIdentifier: The store's identifier; every identifier in the request must name it.
    ///   - schema: The schema to check entities, attributes and `.unique` against; `nil` accepts any entity
    ///     without options.
    public static func plan(
        _ request: DataStoreSaveChangesRequest, over source: some SnapshotRowSource, storeIdentifier: String,
        schema: Schema?
    ) throws(DataStoreError) -> SavePlan {
        try plan(request, over: source, storeIdentifier: storeIdentifier, schema: schema, rules: [:])
    }

    /// As above, with the rules of `schema`'s entities made already.
    static func plan(
        _ request: DataStoreSaveChangesRequest, over source: some SnapshotRowSource, storeIdentifier: String,
        schema: Schema?, rules: [String: EntityRules]
    ) throws(DataStoreError) -> SavePlan {
        var planner = Planner(source: source, store: storeIdentifier, schema: schema)
        planner.knownRules = rules
        return try planner.plan(request)
    }

    /// Plans several requests in order, each over the rows as the earlier ones that succeed leave them, for
    /// a store that commits them together (group commit): one request's failure is its own result and does
    /// not affect the others.
    public static func plan(
        _ requests: [DataStoreSaveChangesRequest], over source: some SnapshotRowSource,
        storeIdentifier: String,
        schema: Schema?
    ) -> [Result<SavePlan, DataStoreError>] {
        plan(requests, over: source, storeIdentifier: storeIdentifier, schema: schema, rules: [:])
    }

    /// As above, with the rules of `schema`'s entities made already (a ``SnapshotTable`` keeps them), so that
    /// a save does not build them again.
    static func plan(
        _ requests: [DataStoreSaveChangesRequest], over source: some SnapshotRowSource,
        storeIdentifier: String, schema: Schema?, rules: [String: EntityRules]
    ) -> [Result<SavePlan, DataStoreError>] {
        var planner = Planner(source: source, store: storeIdentifier, schema: schema)
        planner.knownRules = rules
        return requests.indices.map { index in
            let result = Result { () throws(DataStoreError) in try planner.plan(requests[index]) }
            // The last request's overlay is never read again: folding it would only copy it.
            guard index < requests.count - 1 else { return result }
            if case .success = result { planner.foldIntoOriginals() } else { planner.discardOverlay() }
            return result
        }
    }

    /// The changes a request without remapped upserts makes in a schema without relationships, made as the
    /// planner meets each named model: its inserts and updates in order, then its deletes.
    struct DirectChanges {
        let isOn: Bool
        var changed: [PlannedChange] = []
        var deleted: [PlannedChange] = []
    }

    /// Plans one request over an overlay of the source's rows, reading each row at most once.
    struct Planner<Source: SnapshotRowSource> {
        let source: Source
        let store: String
        let schema: Schema?
        /// The rows read from the source, as committed (`nil`: not there).
        var originals: [PersistentIdentifier: DataStoreSnapshot?] = [:]
        /// The holders read from the source.
        var holders: [UniqueKey: PersistentIdentifier?] = [:]
        /// The state after this save of every model it touches; `nil` means deleted.
        var final: [PersistentIdentifier: DataStoreSnapshot?] = [:]
        var owners: [UniqueKey: PersistentIdentifier?] = [:]
        var order: [PersistentIdentifier] = []
        /// Models an insert found missing from the source without entering them in `originals` (see
        /// ``exists(_:)``).
        var missing: [PersistentIdentifier] = []
        var remapped: [PersistentIdentifier: PersistentIdentifier] = [:]
        /// Inserts whose rows are not entered in `final` yet: without relationships, an insert that holds no
        /// unique value is read from `final` only when an upsert makes ``changes()`` run or a later request of
        /// a group is planned over this one (see ``enterDeferredInserts()``). A bulk insert then builds no table
        /// entry per model that nothing reads.
        var deferredInserts: [DataStoreSnapshot] = []
        /// The rules of the entities this save names, looked up once each (`nil`: not in the schema).
        var rulesByEntity: [String: EntityRules?] = [:]
        /// Rules made before this save, for `schema`'s entities.
        var knownRules: [String: EntityRules] = [:]

        /// Whether any entity of the schema has a relationship. Without one, a save touches only the models it
        /// names and stores exactly the values it sends: no inverse to keep, no delete rule to follow, no list to
        /// merge and nothing to report back, so the planner skips those passes.
        let schemaHasRelationships: Bool
        /// Whether there is a schema: `schema != nil` copies the schema, retaining each of its parts.
        let hasSchema: Bool
        /// The entity `rules(for:)` answered for last, and its answer: a save's models are mostly of one entity,
        /// and comparing its name with the last costs less than hashing it.
        var lastRules: (entityName: String, rules: EntityRules?)?

        init(source: Source, store: String, schema: Schema?) {
            self.source = source
            self.store = store
            self.schema = schema
            hasSchema = schema != nil
            schemaHasRelationships = schema?.entities.contains { !$0.relationships.isEmpty } ?? false
        }

        /// The committed row, read from the source once.
        mutating func original(_ id: PersistentIdentifier) throws(DataStoreError) -> DataStoreSnapshot? {
            if let known = originals[id] { return known }
            let row = try source.row(for: id)
            originals[id] = .some(row)
            return row
        }

        mutating func current(_ id: PersistentIdentifier) throws(DataStoreError) -> DataStoreSnapshot? {
            if let overlay = final[id] { return overlay }
            return try original(id)
        }

        /// Whether model `id` is there (``current(_:)`` is not `nil`), for an insert. Without relationships, a
        /// row the source lacks is not remembered in `originals` (a table entry per inserted model) unless
        /// ``changes()`` needs it: `missing` lists those models, and it enters them then, so that each row is
        /// still read from the source at most once.
        mutating func exists(_ id: PersistentIdentifier) throws(DataStoreError) -> Bool {
            if !final.isEmpty, let overlay = final[id] { return overlay != nil }
            if !originals.isEmpty, let known = originals[id] { return known != nil }
            guard schemaHasRelationships else {
                guard try source.row(for: id) == nil else { return true }
                missing.append(id)
                return false
            }
            return try original(id) != nil
        }

        /// Makes the planned request's outcome the rows the next request is planned over.
        mutating func foldIntoOriginals() {
            enterDeferredInserts()
            originals.merge(final) { _, after in after }
            holders.merge(owners) { _, after in after }
            discardOverlay()
        }

        /// Forgets what the last request would have changed (it failed).
        mutating func discardOverlay() {
            final = [:]
            deferredInserts = []
            owners = [:]
            order = []
            remapped = [:]
            missing = []
        }

        /// Enters the deferred inserts' rows in `final`, before anything reads them there.
        mutating func enterDeferredInserts() {
            guard !deferredInserts.isEmpty else { return }
            for index in deferredInserts.indices {
                final[deferredInserts[index].persistentIdentifier] = .some(deferredInserts[index])
            }
            deferredInserts = []
        }

        /// The rules of an entity, or `nil` when there is no schema or it has no such entity.
        mutating func rules(for entityName: String) -> EntityRules? {
            if let last = lastRules, last.entityName == entityName { return last.rules }
            let found: EntityRules?
            if let known = knownRules[entityName] {
                found = known
            } else if let known = rulesByEntity[entityName] {
                found = known
            } else {
                found = schema?.entity(named: entityName).map(EntityRules.init)
                rulesByEntity[entityName] = .some(found)
            }
            lastRules = (entityName, found)
            return found
        }

        /// The model holding `key` after this save so far. The source's answer is remembered unless the caller
        /// is about to claim a free key (an insert's), which the save's own claims then answer.
        mutating func owner(_ key: UniqueKey, remembering: Bool = true) throws(DataStoreError)
            -> PersistentIdentifier?
        {
            if let overlay = owners[key] { return overlay }
            if let known = holders[key] { return known }
            let holder = try source.uniqueHolder(
                entity: key.entity, attributes: key.attributes, values: key.values)
            if remembering || holder != nil { holders[key] = .some(holder) }
            return holder
        }

        mutating func plan(_ request: DataStoreSaveChangesRequest) throws(DataStoreError) -> SavePlan {
            let named = request.inserted.count + request.updated.count + request.deleted.count
            var seen = Set<PersistentIdentifier>(minimumCapacity: named)
            // Sized for the request up front: growing these one model at a time costs more than filling them.
            // Without relationships, inserts of an entity without unique constraints are deferred (see
            // `deferredInserts`): no room for them.
            let firstInsertRules = request.inserted.first.flatMap {
                self.rules(for: $0.persistentIdentifier.entityName)
            }
            let insertsHoldUniqueValues = firstInsertRules?.uniqueConstraints.isEmpty == false
            let insertsAreDeferred = !schemaHasRelationships && !insertsHoldUniqueValues
            final.reserveRoom(final.count + named - (insertsAreDeferred ? request.inserted.count : 0))
            if insertsAreDeferred { deferredInserts.reserveCapacity(request.inserted.count) }
            // An insert reads no original (`exists(_:)`) unless relationships make `changes()` look them up.
            originals.reserveRoom(
                originals.count + named - (schemaHasRelationships ? 0 : request.inserted.count))
            order.reserveCapacity(order.count + named)
            // Each insert of an entity with unique constraints claims its values here.
            if insertsHoldUniqueValues { owners.reserveRoom(owners.count + request.inserted.count) }
            // By index here and below: iterating a list would copy each snapshot (its identifier's strings and
            // its values retained and released), a bulk insert's hundred thousand twice.
            for list in [request.inserted, request.updated, request.deleted] {
                for index in list.indices {
                    try check(list[index])
                    guard seen.insert(list[index].persistentIdentifier).inserted else {
                        throw .invalidSave(
                            store: store,
                            reason: "model \(list[index].persistentIdentifier) appears more than once")
                    }
                }
            }
            // Without relationships, each named model changes once, from the row read here to the row written
            // here: its change is made on the spot, instead of by looking both up again afterwards. Unless an
            // upsert is remapped (its holder may be named too, or found by two upserts): `changes()` sorts
            // that out.
            var direct = DirectChanges(isOn: !schemaHasRelationships)
            // Room for the deletes too: they are appended to the list at the end.
            if direct.isOn { direct.changed.reserveCapacity(named) }
            // Deletes first, so a unique value freed by this save can be taken by an insert in it.
            for snapshot in request.deleted {
                let id = snapshot.persistentIdentifier
                guard let existing = try current(id) else {
                    throw .modelNotFound(store: store, identifier: id)
                }
                try release(existing)
                final[id] = .some(nil)
                if direct.isOn { direct.deleted.append(deletion(of: existing)) }
            }
            // Unique values that updates in this save give up are free for its inserts, as a delete's are: a
            // model renamed away from a value, and a new model taking it, are two models, not an upsert.
            if !request.inserted.isEmpty { try releaseValuesGivenUp(by: request.updated) }
            var conflicts: [(PersistentIdentifier, [String])] = []
            let inserted = request.inserted
            let hasBaselines = !request.baselines.isEmpty
            for index in inserted.indices {
                let id = inserted[index].persistentIdentifier
                let conflict = try insert(
                    inserted[index], baseline: hasBaselines ? request.baselines[id] : nil,
                    checkingBaseline: request.mergePolicy == .error)
                if let conflict { conflicts.append(conflict) }
                if direct.isOn, remapped.isEmpty {
                    direct.changed.append(
                        PlannedChange(kind: .insert, identifier: id, values: inserted[index].values))
                }
            }
            for snapshot in request.updated {
                let id = snapshot.persistentIdentifier
                guard let existing = try current(id) else {
                    throw .modelNotFound(store: store, identifier: id)
                }
                let baseline = request.baselines[id]
                if request.mergePolicy == .error, let baseline {
                    let changed = Self.conflicting(snapshot, baseline: baseline, stored: existing)
                    if !changed.isEmpty { conflicts.append((id, changed)) }
                }
                let merged = merging(snapshot, baseline: baseline, into: existing)
                try write(merged, replacing: existing)
                if direct.isOn, remapped.isEmpty, let change = change(id, from: existing, to: merged) {
                    direct.changed.append(change)
                }
            }
            if let (first, attributes) = conflicts.first {
                throw .mergeConflict(
                    store: store, identifier: first, attributes: attributes, conflictCount: conflicts.count)
            }
            order.append(contentsOf: request.updated.map(\.persistentIdentifier))
            order.append(contentsOf: request.deleted.map(\.persistentIdentifier))
            guard schemaHasRelationships else {
                // Only the named models change, each once, and each stores what was sent; unless an upsert's
                // holder stands for its insert, which the request may also name (or two upserts find one).
                let changes: [PlannedChange]
                if remapped.isEmpty {
                    // Appended in place: adding the two lists made a copy of every change.
                    direct.changed.append(contentsOf: direct.deleted)
                    changes = direct.changed
                } else {
                    enterDeferredInserts()
                    changes = try self.changes()
                }
                return SavePlan(
                    changes: changes, remappedIdentifiers: remapped,
                    deleteRuleChanges: remapped.isEmpty ? [] : differencesFromRequest(request))
            }
            remapReferences()
            var inverses = InverseRelationships()
            try inverses.apply(
                in: &self,
                to: (request.inserted + request.updated).map {
                    remapped[$0.persistentIdentifier] ?? $0.persistentIdentifier
                })
            order.append(contentsOf: inverses.updated)
            var rules = DeleteRules(deleted: request.deleted.map(\.persistentIdentifier))
            try rules.apply(in: &self)
            order.append(contentsOf: rules.nullified + rules.cascaded)
            try checkReferences(of: request.inserted + request.updated)
            let changes = try changes()
            let requested = seen
            return SavePlan(
                changes: changes, remappedIdentifiers: remapped,
                deleteRuleChanges: changes.filter { !requested.contains($0.identifier) }
                    + differencesFromRequest(request))
        }

        /// The stored row `existing` with an update's change set applied: each sent attribute takes the sent
        /// value, except a to-many relationship with a baseline that another saver changed since (the stored list
        /// is not the baseline), which takes the stored list minus what the saver removed since its baseline plus
        /// what it added, in the stored order (so that two savers' edits of one list both count).
        mutating func merging(
            _ snapshot: DataStoreSnapshot, baseline: [String: SnapshotValue]?,
            into existing: DataStoreSnapshot
        ) -> DataStoreSnapshot {
            var merged = existing
            let relationships = rules(for: existing.persistentIdentifier.entityName)?.relationships ?? [:]
            for (name, value) in snapshot.values {
                guard let relationship = relationships[name], relationship.isToMany,
                    let base = baseline?[name], let sent = value.relatedIdentifiers
                else {
                    merged.values[name] = value
                    continue
                }
                let stored = existing[attribute: name].relatedIdentifiers ?? []
                if base.relatedIdentifiers ?? [] == stored {
                    // No one changed the list since the saver read it: its list stands as sent, in its order (a
                    // reorder is an edit too), compared rather than hashed.
                    merged.values[name] = value
                    continue
                }
                let before = Set(base.relatedIdentifiers ?? [])
                let after = Set(sent)
                var list = stored.filter { after.contains($0) || !before.contains($0) }
                var present = Set(list)
                for id in sent where !before.contains(id) && present.insert(id).inserted { list.append(id) }
                merged.values[name] = .array(list.map(SnapshotValue.identifier))
            }
            return merged
        }

        /// For requested models whose stored values after this save differ from what the request sent (a list
        /// merged with another saver's edits, an inverse kept consistent), an update carrying the stored values,
        /// so that the saving context takes them.
        func differencesFromRequest(_ request: DataStoreSaveChangesRequest) -> [PlannedChange] {
            var result: [PlannedChange] = []
            for snapshot in request.inserted + request.updated {
                let id = remapped[snapshot.persistentIdentifier] ?? snapshot.persistentIdentifier
                guard let row = final[id] ?? nil else { continue }
                let differing = snapshot.values.keys.filter { row[attribute: $0] != snapshot.values[$0] }
                guard !differing.isEmpty else { continue }
                result.append(
                    PlannedChange(
                        kind: .update, identifier: id,
                        values: Dictionary(uniqueKeysWithValues: differing.map { ($0, row[attribute: $0]) }),
                        updatedAttributes: differing.sorted()))
            }
            return result
        }

        /// Points references to an insert that became an upsert at the model it updated, in every row this
        /// save writes, so that a new model related to it in the same save relates to the holder. A list that
        /// named both (a saver that put its own model of a unique value beside another saver's) then names the
        /// holder twice, until ``checkReferences(of:)`` keeps it once.
        mutating func remapReferences() {
            guard !remapped.isEmpty, let schema else { return }
            for (id, row) in final {
                guard var row, let entity = schema.entity(named: id.entityName), !entity.relationships.isEmpty
                else { continue }
                var changed = false
                for relationship in entity.relationships {
                    let value = row[attribute: relationship.name]
                    guard let targets = value.relatedIdentifiers,
                        targets.contains(where: { remapped[$0] != nil })
                    else { continue }
                    let mapped = targets.map { SnapshotValue.identifier(remapped[$0] ?? $0) }
                    row.values[relationship.name] = relationship.isToMany ? .array(mapped) : mapped[0]
                    changed = true
                }
                if changed { final[id] = .some(row) }
            }
        }

        /// Throws when an inserted or updated model's relationship gains an identifier that names no model of
        /// the destination after this save (a deleted model, one never saved, or one of another entity). A
        /// to-many list naming a model more than once names it once, where it first stands: a list holds each
        /// model once (as SwiftData's, which Core Data keeps as a set), whether the saver sent it twice or an
        /// upsert made two of its members one.
        mutating func checkReferences(of snapshots: [DataStoreSnapshot]) throws(DataStoreError) {
            guard hasSchema else { return }
            for snapshot in snapshots {
                let id = remapped[snapshot.persistentIdentifier] ?? snapshot.persistentIdentifier
                guard let entity = rules(for: id.entityName)?.entity, !entity.relationships.isEmpty,
                    let after = final[id] ?? nil
                else { continue }
                let before = try original(id)
                for relationship in entity.relationships {
                    let held = Set(before?[attribute: relationship.name].relatedIdentifiers ?? [])
                    guard let targets = after[attribute: relationship.name].relatedIdentifiers else {
                        throw .invalidRelationship(
                            entity: id.entityName, relationship: relationship.name,
                            reason: "its value is not an identifier or a list of identifiers")
                    }
                    // Made only for a list of two or more, where a model can be named twice.
                    var listed = Set<PersistentIdentifier>()
                    var repeated = false
                    if targets.count > 1 { listed.reserveCapacity(targets.count) }
                    for target in targets {
                        if targets.count > 1, !listed.insert(target).inserted { repeated = true }
                        guard !held.contains(target) else { continue }
                        guard target.entityName == relationship.destination, try current(target) != nil else {
                            throw .invalidRelationship(
                                entity: id.entityName, relationship: relationship.name, identifier: target,
                                reason:
                                    "the related model is not in store '\(store)' (deleted, never saved, or not a "
                                    + "\(relationship.destination))")
                        }
                    }
                    if repeated { keepOnce(relationship.name, of: id) }
                }
            }
        }

        /// Rewrites `id`'s list `name` in the save's rows with each model once, where it first stands.
        private mutating func keepOnce(_ name: String, of id: PersistentIdentifier) {
            guard var row = final[id] ?? nil, let targets = row[attribute: name].relatedIdentifiers else {
                return
            }
            var listed = Set<PersistentIdentifier>()
            row.values[name] = .array(
                targets.filter { listed.insert($0).inserted }.map(SnapshotValue.identifier))
            final[id] = .some(row)
        }

        mutating func check(_ snapshot: DataStoreSnapshot) throws(DataStoreError) {
            let id = snapshot.persistentIdentifier
            guard id.storeIdentifier == store else {
                throw .invalidSave(
                    store: store, reason: "model \(id) names store '\(id.storeIdentifier ?? "nil")'")
            }
            guard hasSchema else { return }
            guard let rules = rules(for: id.entityName) else {
                throw .unknownEntity(store: store, entity: id.entityName)
            }
            let names = rules.attributePositions
            if snapshot.values.keys.contains(where: { names[$0] == nil }) {
                // The first in order, to name the same attribute every time when there are several.
                let unknown = snapshot.values.keys.filter { names[$0] == nil }.min() ?? "?"
                throw .invalidSave(store: store, reason: "\(id.entityName) has no attribute '\(unknown)'")
            }
        }

        /// Plans an insert. One whose unique value a model holds becomes an update of that model with the
        /// insert's values; with a `baseline` (even an empty one) it is merged as an update is
        /// (``merging(_:baseline:into:)``): attributes it leaves out keep their values, and a to-many relationship
        /// with a baseline is merged into the stored list. When `checkingBaseline` (merge policy `.error`), such
        /// an update is checked as an update is: returns the holder and the attributes whose stored value differs
        /// from the baseline, if any (the save is then refused).
        mutating func insert(
            _ snapshot: DataStoreSnapshot, baseline: [String: SnapshotValue]?, checkingBaseline: Bool
        ) throws(DataStoreError) -> (PersistentIdentifier, [String])? {
            let proposed = snapshot.persistentIdentifier
            if try exists(proposed) {
                throw .invalidSave(store: store, reason: "model \(proposed) is already in the store")
            }
            // An insert whose unique value is taken becomes an update of the owner: the seeds' upsert.
            var found = Set<PersistentIdentifier>()
            var taken: UniqueKey?
            let keys = uniqueKeys(of: snapshot)
            for key in keys {
                guard let holder = try owner(key, remembering: false) else { continue }
                found.insert(holder)
                taken = taken ?? key
            }
            guard found.count <= 1 else {
                let key = taken
                throw .uniqueConstraintViolation(
                    store: store, entity: proposed.entityName, attribute: key?.attributeDescription ?? "?",
                    value: "\(key?.valueDescription ?? "?") (held by several models)")
            }
            var conflict: (PersistentIdentifier, [String])?
            if let holder = found.first, let existing = try current(holder) {
                if checkingBaseline, let baseline {
                    let changed = Self.conflicting(snapshot, baseline: baseline, stored: existing)
                    if !changed.isEmpty { conflict = (holder, changed) }
                }
                remapped[proposed] = holder
                var merged = snapshot
                merged.persistentIdentifier = holder
                if let baseline {
                    merged = merging(merged, baseline: baseline, into: existing)
                }
                try write(merged, replacing: existing)
                order.append(holder)
            } else if found.isEmpty {
                // The common insert: no model holds its unique values, so it takes them, as `write` would
                // after making the keys and asking for their holders again.
                for key in keys { owners[key] = .some(proposed) }
                if keys.isEmpty && !schemaHasRelationships {
                    deferredInserts.append(snapshot)
                } else {
                    final[proposed] = .some(snapshot)
                }
                order.append(proposed)
            } else {
                try write(snapshot, replacing: nil)
                order.append(proposed)
            }
            return conflict
        }

        /// The attributes `snapshot` sends whose `stored` value differs from the value `baseline` says the
        /// saver read, in name order: a merge policy of `.error` refuses the save when there are any.
        static func conflicting(
            _ snapshot: DataStoreSnapshot, baseline: [String: SnapshotValue], stored: DataStoreSnapshot
        ) -> [String] {
            snapshot.values.keys.filter { name in
                baseline[name].map { stored[attribute: name] != $0 } ?? false
            }.sorted()
        }

        /// Records `snapshot` as the new state of its model, moving its unique values.
        mutating func write(_ snapshot: DataStoreSnapshot, replacing existing: DataStoreSnapshot?)
            throws(DataStoreError)
        {
            let id = snapshot.persistentIdentifier
            // The common update: no unique value has moved in this save, and this model keeps its own.
            if let existing, owners.isEmpty, keepsUniqueValues(snapshot, of: existing) {
                final[id] = .some(snapshot)
                return
            }
            let claimed = uniqueKeys(of: snapshot)
            let held = existing.map { uniqueKeys(of: $0) } ?? []
            for key in claimed {
                // A value the model held before this save is its own, unless this save gave it to another
                // model: no need to ask the source who holds it (the common update keeps its unique values).
                if owners[key] == nil, held.contains(key) { continue }
                if let holder = try owner(key), holder != id {
                    throw .uniqueConstraintViolation(
                        store: store, entity: id.entityName, attribute: key.attributeDescription,
                        value: key.valueDescription)
                }
            }
            // Values the model keeps stay its own: they are neither released nor claimed again.
            try release(held.filter { !claimed.contains($0) }, of: id)
            for key in claimed where !held.contains(key) || owners[key] != nil { owners[key] = .some(id) }
            final[id] = .some(snapshot)
        }

        /// Whether `snapshot` holds the same value as `existing` in every attribute of a unique constraint:
        /// compared in place, without making the keys.
        mutating func keepsUniqueValues(_ snapshot: DataStoreSnapshot, of existing: DataStoreSnapshot) -> Bool
        {
            guard let rules = rules(for: snapshot.persistentIdentifier.entityName) else { return true }
            return rules.uniqueConstraints.allSatisfy { names in
                names.allSatisfy { snapshot[attribute: $0] == existing[attribute: $0] }
            }
        }

        /// Frees the unique values that `updates` change away from, before a save's inserts claim theirs.
        mutating func releaseValuesGivenUp(by updates: [DataStoreSnapshot]) throws(DataStoreError) {
            for snapshot in updates {
                let id = snapshot.persistentIdentifier
                guard let rules = rules(for: id.entityName), !rules.uniqueConstraints.isEmpty,
                    snapshot.values.keys.contains(where: rules.keyedAttributeNames.contains),
                    let existing = try current(id)
                else { continue }
                var updated = existing
                updated.values.merge(snapshot.values) { _, new in new }
                let kept = Set(uniqueKeys(of: updated))
                try release(uniqueKeys(of: existing).filter { !kept.contains($0) }, of: id)
            }
        }

        mutating func release(_ snapshot: DataStoreSnapshot) throws(DataStoreError) {
            try release(uniqueKeys(of: snapshot), of: snapshot.persistentIdentifier)
        }

        /// Frees the `keys` that `id` holds, for other models in this save to take.
        mutating func release(_ keys: [UniqueKey], of id: PersistentIdentifier) throws(DataStoreError) {
            for key in keys where try owner(key) == id { owners[key] = .some(nil) }
        }

        mutating func uniqueKeys(of snapshot: DataStoreSnapshot) -> [UniqueKey] {
            rules(for: snapshot.persistentIdentifier.entityName)?.uniqueKeys(of: snapshot) ?? []
        }

        /// Folds each touched model's original row and final state into at most one change, in the order the
        /// models were first touched.
        mutating func changes() throws(DataStoreError) -> [PlannedChange] {
            for id in missing where originals[id] == nil { originals[id] = .some(nil) }
            missing = []
            var emitted = Set<PersistentIdentifier>(minimumCapacity: order.count)
            var result: [PlannedChange] = []
            result.reserveCapacity(order.count)
            for id in order where emitted.insert(id).inserted {
                if let change = try change(id, from: original(id), to: final[id] ?? nil) {
                    result.append(change)
                }
            }
            return result
        }

        /// The change that takes model `id` from `before` to `after` (`nil`: not there), or `nil` when there
        /// is none (an update that sets every attribute to what it was).
        mutating func change(
            _ id: PersistentIdentifier, from before: DataStoreSnapshot?, to after: DataStoreSnapshot?
        )
            -> PlannedChange?
        {
            switch (before, after) {
            case (nil, let after?):
                return PlannedChange(kind: .insert, identifier: id, values: after.values)
            case (let before?, let after?):
                let changed = before.changedAttributes(to: after)
                guard !changed.isEmpty else { return nil }
                let values = Dictionary(uniqueKeysWithValues: changed.map { ($0, after[attribute: $0]) })
                return PlannedChange(
                    kind: .update, identifier: id, values: values, updatedAttributes: changed,
                    previousValues: previousValues(of: before, among: changed))
            case (let before?, nil):
                return deletion(of: before)
            case (nil, nil):
                return nil
            }
        }

        /// The delete of the stored row `row`, with the tombstone its entity's rules keep.
        mutating func deletion(of row: DataStoreSnapshot) -> PlannedChange {
            guard let rules = rules(for: row.persistentIdentifier.entityName) else {
                return PlannedChange(kind: .delete, identifier: row.persistentIdentifier, tombstone: [:])
            }
            return rules.deletion(of: row)
        }

        /// The values in `snapshot` (the row before the change) of the attributes marked
        /// `.preservePreviousValue`, among `changed` (an update's); `nil` when none.
        mutating func previousValues(of snapshot: DataStoreSnapshot, among changed: [String])
            -> [String: SnapshotValue]?
        {
            rules(for: snapshot.persistentIdentifier.entityName)?.previousValues(of: snapshot, among: changed)
        }
    }
}
