import DataStoreCore

/// The order a device's edit of a to-many list gives the server's list, when the list keeps no previous values
/// and its inverse is to-one.
///
/// Without previous values the push cannot tell what the device changed in the list, only what the list is
/// after its transaction, and the device may have saved it from a stale view. So the list never decides who
/// belongs to it: the members' own to-one side does, and the server's inverse upkeep files them (a model linked
/// is appended, one unlinked leaves). What the list adds is its order, in two cases:
/// - the transaction changed the list and linked or unlinked nothing in it: a reorder. The members both lists
///   hold take the device's order; a member only the server holds (added elsewhere, not yet pulled) stays in
///   front of the member it preceded on the server;
/// - it linked models to the list: each goes in front of the member that follows it in the device's list,
///   or at the end when nothing follows it (an append). The other members keep the server's order.
struct PushedListOrder {
    /// The server's list when the push read it.
    let theirs: [PersistentIdentifier]
    /// The device's list after its transaction, in server identifiers.
    let mine: [PersistentIdentifier]
    /// Models the transaction linked to the list's owner (their to-one side names it now) that the server
    /// holds after the save.
    let linked: Set<PersistentIdentifier>
    /// Models the transaction linked elsewhere, unlinked or deleted.
    let unlinked: Set<PersistentIdentifier>

    /// The order of `mine` over `theirs`, given the transaction's `links`.
    init(
        theirs: [PersistentIdentifier], mine: [PersistentIdentifier],
        links: (linked: Set<PersistentIdentifier>, unlinked: Set<PersistentIdentifier>)
    ) {
        self.theirs = theirs
        self.mine = mine
        (linked, unlinked) = links
    }

    /// What the server's inverse upkeep makes of the links alone: ``theirs`` without the unlinked, the newly
    /// linked appended in the device's order. The push sends no list when ``merged`` is the same.
    var linksAlone: [PersistentIdentifier] {
        let kept = theirs.filter { !unlinked.contains($0) }
        let held = Set(kept)
        return kept + mine.filter { linked.contains($0) && !held.contains($0) }
    }

    /// The list the server should hold after the transaction: the members of ``linksAlone``, in the order
    /// described above.
    var merged: [PersistentIdentifier] {
        var list = theirs.filter { !unlinked.contains($0) }
        if linked.isEmpty && unlinked.isEmpty { list = Self.adopting(order: mine, of: list) }
        // Walking the device's list backwards, each newly linked model goes in front of what follows it.
        var held = Set(list)
        var following: PersistentIdentifier?
        for id in mine.reversed() {
            if linked.contains(id) && !held.contains(id) {
                let index = following.flatMap { list.firstIndex(of: $0) } ?? list.endIndex
                list.insert(id, at: index)
                held.insert(id)
            }
            if held.contains(id) { following = id }
        }
        return list
    }

    /// `list` with the members `order` also holds in `order`'s order; each run of the others stays in front
    /// of the member that followed it in `list`, or at the end.
    private static func adopting(
        order: [PersistentIdentifier], of list: [PersistentIdentifier]
    ) -> [PersistentIdentifier] {
        let inOrder = Set(order)
        var runs: [PersistentIdentifier: [PersistentIdentifier]] = [:]
        var run: [PersistentIdentifier] = []
        for id in list {
            if inOrder.contains(id) {
                if !run.isEmpty { runs[id] = run }
                run = []
            } else {
                run.append(id)
            }
        }
        let members = Set(list)
        var seen = Set<PersistentIdentifier>()
        var result: [PersistentIdentifier] = []
        for id in order where members.contains(id) && seen.insert(id).inserted {
            result += runs[id] ?? []
            result.append(id)
        }
        return result + run
    }
}
