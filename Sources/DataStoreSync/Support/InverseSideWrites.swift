import DataStoreCore

/// What one device transaction wrote of the relationship `inverse` of the models of one entity: the side
/// that, for each model, names the lists it belongs to. ``PushedListOrder`` reads from it whom a list edit
/// without previous values added and took off, as the members' own side says.
///
/// Built once per transaction and inverse, and then asked for each list the transaction edits, so that a save
/// filing many items into many lists is read once, not once per list.
struct InverseSideWrites {
    /// Models whose side the transaction wrote (an insert, or an update that changed it) or that it deleted.
    private var written: Set<PersistentIdentifier> = []
    /// Each owner the written sides name, with the models that name it.
    private var naming: [PersistentIdentifier: Set<PersistentIdentifier>] = [:]

    /// Reads the changes of the models of `destination` among `changes` (with their server identifiers)
    /// that write `inverse`.
    init<Change: ValueRecordingHistoryChange>(
        _ inverse: String, of destination: String, in changes: some Sequence<(Change, PersistentIdentifier)>,
        _ references: ReferenceFilter
    ) {
        for (change, id) in changes where id.entityName == destination {
            switch change.kind {
            case .delete:
                written.insert(id)
            case .insert, .update:
                guard change.kind == .insert || change.updatedAttributes.contains(inverse),
                    let value = change.values[inverse]
                else { continue }
                written.insert(id)
                for owner in references.translate(value).relatedIdentifiers ?? [] {
                    naming[owner, default: []].insert(id)
                }
            }
        }
    }

    /// The models the transaction links to `owner` (and the server holds after the save), and those of the
    /// server's list `theirs` whose side the transaction wrote without `owner`, or that it deleted: the ones it
    /// took off. A model that was never on the list is taken off nothing, so a move between two other lists in
    /// the same save leaves a reorder of this one a reorder.
    ///
    /// A to-many side written for another reason, from a view that never saw the owner on it, reads as taken
    /// off too: the one case where the device's stale view wins (Docs/Sync.md).
    func links(to owner: PersistentIdentifier, theirs: [PersistentIdentifier], _ references: ReferenceFilter)
        -> (linked: Set<PersistentIdentifier>, unlinked: Set<PersistentIdentifier>)
    {
        let named = naming[owner] ?? []
        let unlinked = theirs.filter { written.contains($0) && !named.contains($0) }
        return (named.filter(references.exists), Set(unlinked))
    }
}
