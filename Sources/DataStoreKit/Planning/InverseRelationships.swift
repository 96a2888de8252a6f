package import DataStoreCore

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
///
/// Lists are edited in place during the pass (order plus a membership set) and written back once at the end,
/// so a save that links 10,000 new items into one list costs O(10,000), not O(10,000²).
package struct InverseRelationships {
    /// Counts the identifiers of saved relationships the pass hashes to find what they gained and lost, when a
    /// test sets it.
    @TaskLocal package static var examined: ExaminedCount?

    /// Models whose inverse side this pass changed, in the order reached.
    private(set) var updated: [PersistentIdentifier] = []

    /// One to-many relationship of one model, being edited.
    private struct ListKey: Hashable {
        var holder: PersistentIdentifier
        var name: String
    }

    /// A list under edit: its identifiers in order (removed ones included until the end) and its members.
    private struct ListState {
        var order: [PersistentIdentifier]
        var members: Set<PersistentIdentifier>
    }

    private var lists: [ListKey: ListState] = [:]
    private var listOrder: [ListKey] = []

    /// Links and unlinks the inverses of what each of `identifiers` gained and lost in this save.
    mutating func apply<Source>(
        in planner: inout SavePlanner.Planner<Source>, to identifiers: [PersistentIdentifier]
    ) throws(DataStoreError) {
        guard planner.schemaHasRelationships else { return }
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
                // Only the identifiers between the runs both lists start and end with alike can have been lost
                // or gained: filing one item into a list of thousands hashes that item, not the list.
                let (lost, gained) = CommonEnds.differingParts(old, new)
                Self.examined?.count += lost.count + gained.count
                let kept = Set(gained)
                let held = Set(lost)
                // A list may name a model twice: one lost from the middle may still be in a common end.
                var everyKept: Set<PersistentIdentifier>?
                for target in lost where !kept.contains(target) {
                    if everyKept == nil {
                        Self.examined?.count += new.count
                        everyKept = Set(new)
                    }
                    guard everyKept?.contains(target) == false else { continue }
                    try remove(id, from: target, relationship: inverse, in: &planner)
                }
                // Linking a model the relationship held already changes nothing.
                for target in gained where !held.contains(target) {
                    try link(target, inverse, to: id, forward: relationship, in: &planner)
                }
            }
        }
        try writeLists(in: &planner)
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
        forward: Schema.Relationship, in planner: inout SavePlanner.Planner<Source>
    ) throws(DataStoreError) {
        if inverse.isToMany {
            try append(owner, to: ListKey(holder: target, name: inverse.name), in: &planner)
            return
        }
        // A target that is not there is reported by the planner's reference check.
        guard var row = try planner.current(target) else { return }
        let previous = row[attribute: inverse.name].relatedIdentifiers?.first
        guard previous != owner else { return }
        row.values[inverse.name] = .identifier(owner)
        planner.final[target] = .some(row)
        updated.append(target)
        if let previous { try remove(target, from: previous, relationship: forward, in: &planner) }
        // `owner`'s list names `target` (that is why it is linked), but linking it to another list earlier in
        // this pass took it off (a save naming it on two lists): it goes back where it stood, so that the list
        // its side now names holds it.
        if forward.isToMany { restore(target, to: ListKey(holder: owner, name: forward.name)) }
    }

    /// Puts `member` back on a list under edit that dropped it, where it stood.
    private mutating func restore(_ member: PersistentIdentifier, to key: ListKey) {
        guard var list = lists[key], list.members.insert(member).inserted else { return }
        if !list.order.contains(member) { list.order.append(member) }
        lists[key] = list
        updated.append(key.holder)
    }

    /// Removes `member` from `holder`'s `relationship` (a list, or a to-one holding it).
    private mutating func remove<Source>(
        _ member: PersistentIdentifier, from holder: PersistentIdentifier, relationship: Schema.Relationship,
        in planner: inout SavePlanner.Planner<Source>
    ) throws(DataStoreError) {
        if relationship.isToMany {
            let key = ListKey(holder: holder, name: relationship.name)
            guard var list = try state(of: key, in: &planner), list.members.remove(member) != nil else {
                return
            }
            lists[key] = list
            updated.append(holder)
            return
        }
        guard var row = try planner.current(holder),
            row[attribute: relationship.name].relatedIdentifiers?.first == member
        else { return }
        row.values[relationship.name] = .null
        planner.final[holder] = .some(row)
        updated.append(holder)
    }

    private mutating func append<Source>(
        _ member: PersistentIdentifier, to key: ListKey, in planner: inout SavePlanner.Planner<Source>
    ) throws(DataStoreError) {
        guard var list = try state(of: key, in: &planner), list.members.insert(member).inserted else {
            return
        }
        list.order.append(member)
        lists[key] = list
        updated.append(key.holder)
    }

    /// The list under edit, read from the planner on first use; `nil` when its holder is not there.
    private mutating func state<Source>(of key: ListKey, in planner: inout SavePlanner.Planner<Source>)
        throws(DataStoreError) -> ListState?
    {
        if let known = lists[key] { return known }
        guard let row = try planner.current(key.holder) else { return nil }
        let order = row[attribute: key.name].relatedIdentifiers ?? []
        let state = ListState(order: order, members: Set(order))
        lists[key] = state
        listOrder.append(key)
        return state
    }

    /// Writes every edited list into its holder's row: its members, in order, each once.
    private mutating func writeLists<Source>(in planner: inout SavePlanner.Planner<Source>)
        throws(DataStoreError)
    {
        for key in listOrder {
            guard let list = lists[key], var row = try planner.current(key.holder) else { continue }
            var written = Set<PersistentIdentifier>(minimumCapacity: list.members.count)
            var values: [SnapshotValue] = []
            values.reserveCapacity(list.members.count)
            for id in list.order where list.members.contains(id) && written.insert(id).inserted {
                values.append(.identifier(id))
            }
            row.values[key.name] = .array(values)
            planner.final[key.holder] = .some(row)
        }
        lists = [:]
        listOrder = []
    }
}
