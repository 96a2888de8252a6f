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
    /// The models it deleted.
    private var deleted: Set<PersistentIdentifier> = []
    /// The owners each written side named before the transaction, where that is known: empty for a model it
    /// inserted; for an update, the side's previous value, or the device's last value of a many-to-many side.
    private var earlier: [PersistentIdentifier: Set<PersistentIdentifier>] = [:]
    /// Each owner the written sides name, with the models that name it.
    private var naming: [PersistentIdentifier: Set<PersistentIdentifier>] = [:]

    /// Reads the changes of the models of `destination` among `changes` (with their server identifiers)
    /// that write `inverse`. For a side that is a list (many-to-many), `earlierSide` gives a device model's
    /// value of `inverse` before the transaction when it is known (``DeviceListSides``); `nil` for a to-one
    /// side, which names one owner, so that naming another takes the model off every other list.
    init<Change: ValueRecordingHistoryChange>(
        _ inverse: String, of destination: String, in changes: some Sequence<(Change, PersistentIdentifier)>,
        _ references: ReferenceFilter, earlier earlierSide: ((PersistentIdentifier) -> SnapshotValue?)? = nil
    ) {
        for (change, id) in changes where id.entityName == destination {
            switch change.kind {
            case .delete:
                written.insert(id)
                deleted.insert(id)
            case .insert, .update:
                guard change.kind == .insert || change.updatedAttributes.contains(inverse),
                    let value = change.values[inverse]
                else { continue }
                written.insert(id)
                for owner in references.translate(value).relatedIdentifiers ?? [] {
                    naming[owner, default: []].insert(id)
                }
                guard let earlierSide else { continue }
                if change.kind == .insert {
                    earlier[id] = []
                } else if let before = change.previousValues?[inverse]
                    ?? earlierSide(change.changedPersistentIdentifier)
                {
                    earlier[id] = Set(references.translate(before).relatedIdentifiers ?? [])
                }
            }
        }
    }

    /// The models the transaction links to `owner` (and the server holds after the save), and those of the
    /// server's list `theirs` that it took off: those it deleted, and those whose side it wrote without `owner`
    /// when the side named `owner` before (or when that is not known). A model that was never on the list is
    /// taken off nothing, so a move between two other lists in the same save leaves a reorder of this one a
    /// reorder; and a side written for another reason, from a view that never saw the owner on it (another
    /// device made the pair, and this one has not pulled it), leaves the pair alone.
    func links(to owner: PersistentIdentifier, theirs: [PersistentIdentifier], _ references: ReferenceFilter)
        -> (linked: Set<PersistentIdentifier>, unlinked: Set<PersistentIdentifier>)
    {
        let named = naming[owner] ?? []
        let unlinked = theirs.filter { member in
            guard written.contains(member), !named.contains(member) else { return false }
            return deleted.contains(member) || earlier[member].map { $0.contains(owner) } ?? true
        }
        return (named.filter(references.exists), Set(unlinked))
    }
}
