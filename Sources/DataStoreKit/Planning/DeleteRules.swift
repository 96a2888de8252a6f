package import DataStoreCore

/// Applies relationship delete rules inside a save plan, so that a cascade or nullify commits in the same
/// transaction as the delete that caused it.
///
/// Starting from the models the request deletes, it follows each deleted model's relationships (as they
/// were before the save, keeping only the related models whose inverse still points back): `.cascade` deletes the related models and follows theirs in turn (each model
/// once, so cycles end), `.nullify` removes the deleted model from the related models' inverse, `.deny`
/// refuses the save while a related model survives it, `.noAction` does nothing. Each row is read through
/// the planner, so a database-backed store reads only the rows the rules reach.
package struct DeleteRules {
    /// Counts the list entries the rules read, when a test sets it.
    @TaskLocal package static var examined: ExaminedCount?

    /// The models deleted so far, in order: the request's, then each cascade's.
    private var queue: [PersistentIdentifier]
    /// The values each deleted model had before this save.
    private var rowsBeforeDeletion: [PersistentIdentifier: DataStoreSnapshot] = [:]
    /// Models deleted by a cascade, in the order reached.
    private(set) var cascaded: [PersistentIdentifier] = []
    /// Models whose inverse a nullify changed, in the order reached.
    private(set) var nullified: [PersistentIdentifier] = []
    /// The deleted models each nullify takes out of a surviving model's attribute, applied once per model
    /// after the rules ran: taking them out one at a time rebuilt a list of thousands for each member deleted.
    private var removals: [PersistentIdentifier: [String: Set<PersistentIdentifier>]] = [:]
    /// The identifiers a related model's list held when first read here: whether it still points back is
    /// asked once for each of its members deleted.
    private var members: [Membership: Set<PersistentIdentifier>] = [:]

    /// One attribute of one model.
    private struct Membership: Hashable {
        var model: PersistentIdentifier
        var attribute: String
    }

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
                Self.examined?.count += related.count
                // The truth is the related model's side: a model that another saver moved elsewhere since
                // this row was written is no longer this model's to delete or nullify.
                if let inverse = InverseRelationships.inverse(
                    of: relationship, in: id.entityName, planner: &planner)
                {
                    var owned: [PersistentIdentifier] = []
                    for target in related
                    where try pointsBack(target, attribute: inverse.name, to: id, planner: &planner) {
                        owned.append(target)
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
                    // Taken out below, once the rules have run. Until then a model deleted here reads as
                    // missing, which is all the rules ask of the lists that still name it.
                    for target in related where try planner.current(target) != nil {
                        if removals[target] == nil { nullified.append(target) }
                        removals[target, default: [:]][inverse, default: []].insert(id)
                    }
                case .deny:
                    denials.append((id, relationship, related))
                case .noAction:
                    continue
                }
            }
        }
        for target in nullified {
            // A model a later cascade deleted keeps nothing to nullify.
            guard var other = try planner.current(target), let attributes = removals[target] else { continue }
            for (attribute, removed) in attributes {
                let value = other[attribute: attribute]
                let identifiers = value.relatedIdentifiers ?? []
                Self.examined?.count += identifiers.count
                let remaining = identifiers.filter { !removed.contains($0) }
                other.values[attribute] =
                    if case .array = value {
                        .array(remaining.map(SnapshotValue.identifier))
                    } else {
                        remaining.first.map(SnapshotValue.identifier) ?? .null
                    }
            }
            planner.final[target] = .some(other)
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

    /// Whether `target`'s `attribute` (the inverse of a relationship of `id`) still names `id`; `true` when
    /// `target` is gone or the attribute holds no identifiers, as the related side then cannot say otherwise.
    private mutating func pointsBack<Source>(
        _ target: PersistentIdentifier, attribute: String, to id: PersistentIdentifier,
        planner: inout SavePlanner.Planner<Source>
    ) throws(DataStoreError) -> Bool {
        let key = Membership(model: target, attribute: attribute)
        if let known = members[key] {
            return try planner.current(target) == nil || known.contains(id)
        }
        guard let row = try planner.current(target) else { return true }
        let value = row[attribute: attribute]
        guard let identifiers = value.relatedIdentifiers else { return true }
        Self.examined?.count += identifiers.count
        // A list is remembered: its other members are asked about next. A to-one value is cheap to read again.
        if case .array = value { members[key] = Set(identifiers) }
        return identifiers.contains(id)
    }
}
