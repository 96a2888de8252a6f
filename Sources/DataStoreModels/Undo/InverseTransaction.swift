import DataStoreCore

/// The transaction that takes back one committed transaction: what an undo (or a redo, which takes back an
/// undo's transaction) writes. It is made from history alone: the changes' kinds, previous values, tombstones
/// and written values.
struct InverseTransaction {
    /// The transaction taken back.
    let original: ContainerHistoryTransaction
    let saved: SavedTransaction

    /// Reads the transaction at `saved` from its store and checks that it can be taken back with this
    /// container's schema.
    ///
    /// - Throws: `undoUnavailable` when history no longer holds it, when it names an entity or attribute the
    ///   container's schema does not have (a newer schema wrote it), or when history lacks a previous value it
    ///   needs.
    init(_ saved: SavedTransaction, in container: ModelContainer) throws {
        self.saved = saved
        let connection = try container.connection(named: saved.store)
        let found: ContainerHistoryTransaction?
        do {
            found = try connection.transaction(at: saved.position, modelTypes: container.modelTypes)
        } catch let error as DataStoreError where Self.meansHistoryIsGone(error) {
            found = nil
        }
        guard let found else {
            throw DataStoreError.undoUnavailable(
                store: saved.store,
                reason:
                    "history no longer holds transaction \(saved.position.sequence) (it was deleted, or the store "
                    + "was erased)")
        }
        original = found
        let entities = Self.entitiesByName(container.schema)
        for change in original.changes {
            try check(change, entity: entities[change.changedPersistentIdentifier.entityName])
        }
    }

    /// The schema's entities by name, looked up once: `Schema.entity(named:)` scans and copies, and a
    /// transaction (a cascade) may hold thousands of changes.
    static func entitiesByName(_ schema: Schema) -> [String: Schema.Entity] {
        var entities: [String: Schema.Entity] = [:]
        for entity in schema.entities where entities[entity.name] == nil { entities[entity.name] = entity }
        return entities
    }

    static func meansHistoryIsGone(_ error: DataStoreError) -> Bool {
        [.historyTokenExpired, .historyTokenBeyondHistory, .historyTokenFromAnotherStore].contains(error.code)
    }

    private func check(_ change: ModelHistoryChange, entity: Schema.Entity?) throws(DataStoreError) {
        let id = change.changedPersistentIdentifier
        guard change.isTyped, let entity else {
            throw .undoUnavailable(
                store: saved.store,
                reason:
                    "transaction \(saved.position.sequence) changed \(id.entityName), which this app's schema "
                    + "does not have (a newer schema wrote it)")
        }
        let names = Set(entity.attributes.map(\.name))
        let needed: [String]
        switch change.kind {
        case .insert: return
        case .update: needed = change.updatedAttributes
        case .delete: needed = entity.attributes.map(\.name)
        }
        if let unknown = needed.first(where: { !names.contains($0) }) {
            throw .undoUnavailable(
                store: saved.store,
                reason:
                    "transaction \(saved.position.sequence) changed \(id.entityName).\(unknown), which this "
                    + "app's schema does not have (a newer schema wrote it)")
        }
        let kept = (change.previousValues ?? [:]).merging(change.tombstone ?? [:]) { previous, _ in previous }
        if let missing = needed.first(where: { kept[$0] == nil }) {
            throw .undoUnavailable(
                store: saved.store,
                reason: "history did not record the previous value of \(id.entityName).\(missing) "
                    + "(mark it .preservePreviousValue)")
        }
    }

    /// Throws `undoConflict` when a transaction after this one, other than those in `ignored` (the undo
    /// manager's own, and the other transactions of the same step, taken back first), changed what this one
    /// would restore.
    func checkNoLaterChanges(
        ignoring ignored: Set<SavedTransaction>, foreign: ForeignHistory, in container: ModelContainer
    ) throws {
        let later: [StoreHistoryEntry]
        do {
            later = try foreign.transactions(
                after: saved.position, in: saved.store, own: ignored, container: container)
        } catch let error as DataStoreError where Self.meansHistoryIsGone(error) {
            throw DataStoreError.undoUnavailable(
                store: saved.store, reason: "the store's history changed since (erased or trimmed)",
                underlyingError: error)
        }
        var touched: [PersistentIdentifier: ModelHistoryChange] = [:]
        for change in original.changes { touched[change.changedPersistentIdentifier] = change }
        let freedValues = uniqueValuesGivenBack(schema: container.schema)
        // Looked up once per entity: `Schema.entity(named:)` scans and copies.
        var relationshipsByEntity: [String: Set<String>] = [:]
        for id in touched.keys where relationshipsByEntity[id.entityName] == nil {
            relationshipsByEntity[id.entityName] = Set(
                container.schema.entity(named: id.entityName)?.relationships.map(\.name) ?? [])
        }
        for entry in later {
            let transaction = entry.transaction
            let by =
                "transaction \(transaction.storeSequence) by \(transaction.author.map { "'\($0)'" } ?? "no author")"
            for change in transaction.changes {
                let id = change.changedPersistentIdentifier
                if let mine = touched[id],
                    let attribute = Self.conflict(
                        of: mine, with: change, relationships: relationshipsByEntity[id.entityName] ?? [])
                {
                    throw DataStoreError.undoConflict(
                        store: saved.store, identifier: id, attribute: attribute, reason: "changed by \(by)")
                }
                for (given, owner) in freedValues
                where given.entity == id.entityName && given.isTaken(by: change) {
                    throw DataStoreError.undoConflict(
                        store: saved.store, identifier: owner, attribute: given.attribute,
                        reason: "its unique value is now held by \(id), written by \(by)")
                }
            }
        }
    }

    /// The attribute a later change `later` conflicts on with this transaction's change `mine`, or `nil`.
    /// An update of relationships only (the other side of an edit, or a nullify) of a model deleted since is
    /// no conflict: the model is gone, and the undo restores the relationships whose targets exist.
    static func conflict(
        of mine: ModelHistoryChange?, with later: ModelHistoryChange, relationships: Set<String>
    ) -> String? {
        guard let mine else { return nil }
        switch (mine.kind, later.kind) {
        case (.insert, .update):
            return later.updatedAttributes.first ?? "?"
        case (.update, .delete) where mine.updatedAttributes.allSatisfy(relationships.contains):
            return nil
        case (.insert, .delete), (.update, .delete):
            return "(the model was deleted)"
        case (.update, .update):
            return Set(mine.updatedAttributes).intersection(later.updatedAttributes).sorted().first
        case (.delete, .insert):
            return "(the model was inserted again)"
        default:
            return nil
        }
    }

    /// The unique values the deletes of this transaction held, which taking them back gives to their models
    /// again, with the model that held each.
    private func uniqueValuesGivenBack(schema: Schema) -> [(UniqueValue, PersistentIdentifier)] {
        let entities = Self.entitiesByName(schema)
        var result: [(UniqueValue, PersistentIdentifier)] = []
        for change in original.changes where change.kind == .delete {
            let id = change.changedPersistentIdentifier
            guard let entity = entities[id.entityName] else { continue }
            let kept = (change.previousValues ?? [:]).merging(change.tombstone ?? [:]) { previous, _ in
                previous
            }
            for constraint in entity.uniqueConstraints {
                for attribute in constraint {
                    guard let value = kept[attribute] else { continue }
                    result.append(
                        (UniqueValue(entity: id.entityName, attribute: attribute, value: value), id))
                }
            }
        }
        return result
    }

    /// The save request that takes the transaction back, by `author`: deletes for its inserts, previous values
    /// for its updates, inserts for its deletes with the relationships whose targets `exists` (or that this
    /// request inserts again). Updates of models deleted since (relationships only: see
    /// ``conflict(of:with:relationships:)``) are left out. An update carries the values the transaction wrote as
    /// its baseline, so that the store refuses with `mergeConflict` if another author changed them between the
    /// check and the write; to-many relationships carry none, because the store would merge the list with a
    /// baseline instead of restoring it exactly (the history check covers them).
    func request(
        editingState: EditingState, schema: Schema,
        exists: (Set<PersistentIdentifier>) throws -> Set<PersistentIdentifier>
    ) throws -> DataStoreSaveChangesRequest {
        var request = DataStoreSaveChangesRequest(editingState: editingState, mergePolicy: .error)
        // The store is asked once for every model the inverse relates to, not once per model: undoing a
        // cascade may re-insert thousands.
        let entities = Self.entitiesByName(schema)
        let deletes = original.changes.filter { $0.kind == .delete }
        let reinserted = Set(deletes.map(\.changedPersistentIdentifier))
        var kept: [PersistentIdentifier: [String: SnapshotValue]] = [:]
        var targets = Set<PersistentIdentifier>()
        for change in deletes {
            let id = change.changedPersistentIdentifier
            let values = (change.previousValues ?? [:]).merging(change.tombstone ?? [:]) { previous, _ in
                previous
            }
            kept[id] = values
            for relationship in entities[id.entityName]?.relationships ?? [] {
                targets.formUnion(values[relationship.name]?.relatedIdentifiers ?? [])
            }
        }
        let present = try exists(targets.subtracting(reinserted)).union(reinserted)
        let updated = try exists(
            Set(original.changes.filter { $0.kind == .update }.map(\.changedPersistentIdentifier)))
        for change in original.changes {
            let id = change.changedPersistentIdentifier
            let entity = entities[id.entityName]
            switch change.kind {
            case .insert:
                request.deleted.append(DataStoreSnapshot(persistentIdentifier: id, values: [:]))
            case .update:
                guard updated.contains(id) else { continue }
                let toMany = Set(entity?.relationships.filter(\.isToMany).map(\.name) ?? [])
                let previous = change.previousValues ?? [:]
                var values: [String: SnapshotValue] = [:]
                for name in change.updatedAttributes { values[name] = previous[name] }
                request.updated.append(DataStoreSnapshot(persistentIdentifier: id, values: values))
                if let written = change.recordedValues {
                    request.baselines[id] = written.filter {
                        values[$0.key] != nil && !toMany.contains($0.key)
                    }
                }
            case .delete:
                var values = kept[id] ?? [:]
                for relationship in entity?.relationships ?? [] {
                    guard let related = values[relationship.name]?.relatedIdentifiers, !related.isEmpty else {
                        continue
                    }
                    let remaining = related.filter(present.contains).map(SnapshotValue.identifier)
                    values[relationship.name] =
                        relationship.isToMany ? .array(remaining) : (remaining.first ?? .null)
                }
                request.inserted.append(DataStoreSnapshot(persistentIdentifier: id, values: values))
            }
        }
        return request
    }
}

/// A unique value a taken-back delete gives back to its model.
struct UniqueValue {
    var entity: String
    var attribute: String
    var value: SnapshotValue

    /// Whether `change` (a later one) gave the value to a model of the entity.
    func isTaken(by change: ModelHistoryChange) -> Bool {
        guard change.kind != .delete, let written = change.recordedValues else { return false }
        return written[attribute] == value
    }
}
