import DataStoreCore

/// Applies relationship delete rules inside a save plan, so that a cascade or nullify commits in the same
/// transaction as the delete that caused it.
///
/// Starting from the models the request deletes, it follows each deleted model's relationships (as they
/// were before the save, keeping only the related models whose inverse still points back): `.cascade` deletes the related models and follows theirs in turn (each model
/// once, so cycles end), `.nullify` removes the deleted model from the related models' inverse, `.deny`
/// refuses the save while a related model survives it, `.noAction` does nothing. Each row is read through
/// the planner, so a database-backed store reads only the rows the rules reach.
struct DeleteRules {
    /// The models deleted so far, in order: the request's, then each cascade's.
    private var queue: [PersistentIdentifier]
    /// The values each deleted model had before this save.
    private var rowsBeforeDeletion: [PersistentIdentifier: DataStoreSnapshot] = [:]
    /// Models deleted by a cascade, in the order reached.
    private(set) var cascaded: [PersistentIdentifier] = []
    /// Models whose inverse a nullify changed, in the order reached.
    private(set) var nullified: [PersistentIdentifier] = []

    init(deleted: [PersistentIdentifier]) {
        queue = deleted
    }

    mutating func apply<Source>(in planner: inout SavePlanner.Planner<Source>) throws(DataStoreError) {
        guard let schema = planner.schema, planner.schemaHasRelationships else { return }
        var denials: [(PersistentIdentifier, Schema.Relationship, [PersistentIdentifier])] = []
        var index = 0
        while index < queue.count {
            let id = queue[index]
            index += 1
            guard let entity = schema.entity(named: id.entityName), !entity.relationships.isEmpty else {
                continue
            }
            var before = rowsBeforeDeletion[id]
            if before == nil { before = try planner.original(id) }
            guard let row = before else { continue }
            for relationship in entity.relationships {
                var related = row[attribute: relationship.name].relatedIdentifiers ?? []
                // The truth is the related model's side: a model that another saver moved elsewhere since
                // this row was written is no longer this model's to delete or nullify.
                if let inverse = InverseRelationships.inverse(
                    of: relationship, in: id.entityName, planner: &planner)
                {
                    var owned: [PersistentIdentifier] = []
                    for target in related {
                        let pointsBack = try planner.current(target)?[attribute: inverse.name]
                            .relatedIdentifiers
                        if pointsBack?.contains(id) ?? true { owned.append(target) }
                    }
                    related = owned
                }
                switch relationship.deleteRule {
                case .cascade:
                    for target in related {
                        guard let existing = try planner.current(target) else { continue }
                        try planner.release(existing)
                        planner.final[target] = .some(nil)
                        rowsBeforeDeletion[target] = existing
                        queue.append(target)
                        cascaded.append(target)
                    }
                case .nullify:
                    guard let inverse = relationship.inverse else { continue }
                    for target in related {
                        guard var other = try planner.current(target) else { continue }
                        let value = other[attribute: inverse]
                        let remaining = (value.relatedIdentifiers ?? []).filter { $0 != id }
                        other.values[inverse] =
                            if case .array = value {
                                .array(remaining.map(SnapshotValue.identifier))
                            } else {
                                remaining.first.map(SnapshotValue.identifier) ?? .null
                            }
                        planner.final[target] = .some(other)
                        nullified.append(target)
                    }
                case .deny:
                    denials.append((id, relationship, related))
                case .noAction:
                    continue
                }
            }
        }
        for (id, relationship, related) in denials {
            var surviving = 0
            for target in related where try planner.current(target) != nil { surviving += 1 }
            if surviving > 0 {
                throw .deleteDenied(
                    store: planner.store, identifier: id, relationship: relationship.name,
                    relatedCount: surviving)
            }
        }
    }
}
