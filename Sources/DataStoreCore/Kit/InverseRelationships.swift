/// Keeps both sides of every relationship with an inverse consistent inside a save plan, from the rows the
/// store holds rather than from what the saver last read.
///
/// Both sides of a relationship are stored (a trip's `bucketList` and each item's `trip`), and several contexts
/// and processes save them. A saver's view of the other side may be stale: it may still see an item in a trip
/// that another process moved elsewhere. So a save never trusts the saver's copy of the other side: for each
/// model the request inserts or updates, the models its relationships gained and lost (stored row before the
/// save against the row after it) are linked and unlinked on their inverse side, as the store holds them now.
/// Linking a model to a to-one inverse takes it from the model that held it before (moving an item to another
/// trip removes it from the old trip's list), so the stored graph stays consistent whatever the interleaving
/// of savers, and delete rules, which follow it, delete only what a model really owns.
struct InverseRelationships {
    /// Models whose inverse side this pass changed, in the order reached.
    private(set) var updated: [PersistentIdentifier] = []

    /// Links and unlinks the inverses of what each of `identifiers` gained and lost in this save.
    mutating func apply<Source>(
        in planner: inout SavePlanner.Planner<Source>, to identifiers: [PersistentIdentifier]
    ) throws(DataStoreError) {
        guard planner.schema?.entities.contains(where: { !$0.relationships.isEmpty }) == true else { return }
        for id in identifiers {
            guard let rules = planner.rules(for: id.entityName), !rules.relationships.isEmpty,
                let after = try planner.current(id)
            else { continue }
            let before = try planner.original(id)
            for relationship in rules.entity.relationships {
                guard let inverse = Self.inverse(of: relationship, in: id.entityName, planner: &planner)
                else {
                    continue
                }
                let old = before?[attribute: relationship.name].relatedIdentifiers ?? []
                let new = after[attribute: relationship.name].relatedIdentifiers ?? []
                guard old != new else { continue }
                let kept = Set(new)
                let held = Set(old)
                for target in old where !kept.contains(target) {
                    try unlink(target, inverse, from: id, in: &planner)
                }
                for target in new where !held.contains(target) {
                    try link(target, inverse, to: id, forward: relationship.name, in: &planner)
                }
            }
        }
    }

    /// The relationship of the destination that points back at `relationship`: declared on this side, or
    /// found on the destination naming this one as its inverse.
    static func inverse<Source>(
        of relationship: Schema.Relationship, in entity: String, planner: inout SavePlanner.Planner<Source>
    ) -> Schema.Relationship? {
        guard let destination = planner.rules(for: relationship.destination) else { return nil }
        if let name = relationship.inverse, let declared = destination.relationships[name] { return declared }
        return destination.entity.relationships.first {
            $0.destination == entity && $0.inverse == relationship.name
        }
    }

    /// Makes `target`'s `inverse` hold `owner`. A to-one inverse that held another model drops `target` from
    /// that model's `forward` relationship, so that `target` has one owner on both sides.
    private mutating func link<Source>(
        _ target: PersistentIdentifier, _ inverse: Schema.Relationship, to owner: PersistentIdentifier,
        forward: String, in planner: inout SavePlanner.Planner<Source>
    ) throws(DataStoreError) {
        // A target that is not there is reported by the planner's reference check.
        guard var row = try planner.current(target) else { return }
        let value = row[attribute: inverse.name]
        if inverse.isToMany {
            var list = value.relatedIdentifiers ?? []
            guard !list.contains(owner) else { return }
            list.append(owner)
            row.values[inverse.name] = .array(list.map(SnapshotValue.identifier))
        } else {
            let previous = value.relatedIdentifiers?.first
            guard previous != owner else { return }
            row.values[inverse.name] = .identifier(owner)
            if let previous {
                planner.final[target] = .some(row)
                try remove(target, from: previous, relationship: forward, in: &planner)
            }
        }
        planner.final[target] = .some(row)
        updated.append(target)
    }

    /// Removes `owner` from `target`'s `inverse`, if it is there.
    private mutating func unlink<Source>(
        _ target: PersistentIdentifier, _ inverse: Schema.Relationship, from owner: PersistentIdentifier,
        in planner: inout SavePlanner.Planner<Source>
    ) throws(DataStoreError) {
        try remove(owner, from: target, relationship: inverse.name, in: &planner)
    }

    /// Removes `member` from `holder`'s relationship `name` (a list, or a to-one holding it).
    private mutating func remove<Source>(
        _ member: PersistentIdentifier, from holder: PersistentIdentifier, relationship name: String,
        in planner: inout SavePlanner.Planner<Source>
    ) throws(DataStoreError) {
        guard var row = try planner.current(holder) else { return }
        let value = row[attribute: name]
        guard let members = value.relatedIdentifiers, members.contains(member) else { return }
        if case .array = value {
            row.values[name] = .array(members.filter { $0 != member }.map(SnapshotValue.identifier))
        } else {
            row.values[name] = .null
        }
        planner.final[holder] = .some(row)
        updated.append(holder)
    }
}
