import DataStoreCore

/// The list a device's edit of a to-many relationship gives the server, over the list the server holds.
///
/// The device may have saved its list from a stale view, so its list never decides alone who belongs to it.
/// With previous values, the members are the server's, less what the device removed since its base, plus what
/// it added. Without them, the members' own side decides (a to-one inverse, or the other list of a many-to-many
/// relationship), as the same save changed it; with a to-one inverse the server's inverse upkeep files them (a
/// model linked is appended, one unlinked leaves), and the list adds only its order. An upload of the whole
/// device reads the members' side from the rows it uploads.
/// The order, in both cases:
/// - an edit that only reorders (it adds and removes nothing): the members both lists hold take the device's
///   order; a member only the server holds (added elsewhere, not yet pulled) stays in front of the member it
///   preceded on the server;
/// - otherwise each model added goes in front of the member that follows it in the device's list, or at the
///   end when nothing follows it (an append). The other members keep the server's order.
struct PushedListOrder {
    /// The server's list when the push read it.
    let theirs: [PersistentIdentifier]
    /// The device's list after its transaction, in server identifiers.
    let mine: [PersistentIdentifier]
    /// Models the device added to the list (without previous values: those whose own side the transaction set to
    /// name the list's owner) that the server holds after the save.
    let linked: Set<PersistentIdentifier>
    /// Models the device took off the list (without previous values: those whose own side no longer names the
    /// owner, or deleted).
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
    /// linked appended in the device's order. Without previous values, the push sends no list when ``merged``
    /// is the same.
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
