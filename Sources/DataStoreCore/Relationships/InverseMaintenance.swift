/// Keeps both sides of a relationship with an inverse in step, in memory, as SwiftData does.
package enum InverseMaintenance {
    /// One side of a relationship on one instance.
    struct Side: Equatable, @unchecked Sendable {
        // `@unchecked`: key paths are immutable.
        var owner: ObjectIdentifier
        var relationship: AnyKeyPath
    }

    /// The side whose inverses are being updated: the other sides' own maintenance skips it, since it already
    /// holds its new value (without this, assigning a list of n models would scan the list n times).
    @TaskLocal static var inProgress: Side?

    /// Counts the models inverse maintenance compares (lost and gained candidates), when a test sets it.
    @TaskLocal package static var examined: ExaminedCount?

    /// After `owner`'s relationship at `relationship` lost `removed` and gained `added`, removes `owner` from
    /// the inverse of each model it lost and adds it to the inverse of each it gained. Setting the inverse
    /// runs the inverse's own maintenance, which finds `owner`'s side already up to date and stops there.
    static func update<Owner: PersistentModel & AnyObject, Destination: PersistentModel & AnyObject>(
        _ owner: Owner, relationship: AnyKeyPath, removed: [Destination], added: [Destination]
    ) {
        let entry = cachedInverse(of: relationship, in: Owner.self, destination: Destination.self)
        guard let inverse = entry.inverse else { return }
        examined?.count += removed.count + added.count
        let kept = Set(removed.map(ObjectIdentifier.init)).intersection(added.map(ObjectIdentifier.init))
        let skipped = inProgress.map { $0.relationship == inverse ? $0.owner : nil } ?? nil
        let lost = removed.filter { !kept.contains(ObjectIdentifier($0)) && ObjectIdentifier($0) != skipped }
        let gained = added.filter { !kept.contains(ObjectIdentifier($0)) && ObjectIdentifier($0) != skipped }
        guard !lost.isEmpty || !gained.isEmpty else { return }
        $inProgress.withValue(Side(owner: ObjectIdentifier(owner), relationship: relationship)) {
            updateInverse(entry, inverse, of: owner, lost: lost, gained: gained)
        }
    }

    private static func updateInverse<
        Owner: PersistentModel & AnyObject, Destination: PersistentModel & AnyObject
    >(
        _ entry: InverseEntry, _ inverse: AnyKeyPath, of owner: Owner, lost: [Destination],
        gained: [Destination]
    ) {
        if let editList = entry.editList {
            // A list, plain (`[Owner]`) or optional (`[Owner]?`): edited where it lies, found by reference.
            for model in lost { editList(model, false, owner) }
            for model in gained { editList(model, true, owner) }
        } else if let toOne = inverse as? ReferenceWritableKeyPath<Destination, Owner?> {
            for model in lost where model[keyPath: toOne] === owner { model[keyPath: toOne] = nil }
            for model in gained where model[keyPath: toOne] !== owner { model[keyPath: toOne] = owner }
        }
    }

    /// Inverses by relationship key path object, as ``ModelTypeFacts`` keeps attribute names: finding one walks
    /// both types' `schemaAttributes` and compares key paths, which cost more than the rest of setting a
    /// to-one relationship. Each entry holds its key path, so that its address is not reused while the entry
    /// exists; bounded, as key paths can be made at run time.
    private static let inverses = Lock<[ModelTypeFacts.KeyPathUse: InverseEntry]>([:])
    private static let inversesLimit = 4_096

    private struct InverseEntry: @unchecked Sendable {
        // `@unchecked`: key paths are immutable, and so is what the editor captures.
        let relationship: AnyKeyPath
        let inverse: AnyKeyPath?
        /// When the inverse is to-many: adds a model to (`true`) or removes it from the list a destination
        /// model holds (see `RelationshipAccess.editList`).
        let editList: ((AnyObject, Bool, AnyObject) -> Void)?
    }

    /// ``inverseKeyPath(of:in:destination:)``, found once per relationship key path object, with the editor of
    /// the inverse's list.
    private static func cachedInverse<Owner: PersistentModel, Destination: PersistentModel & AnyObject>(
        of relationship: AnyKeyPath, in _: Owner.Type, destination _: Destination.Type
    ) -> InverseEntry {
        let use = ModelTypeFacts.KeyPathUse(
            model: ObjectIdentifier(Owner.self), keyPath: ObjectIdentifier(relationship))
        if let known = inverses.withLock({ $0[use] }) { return known }
        let inverse = inverseKeyPath(of: relationship, in: Owner.self, destination: Destination.self)
        let access = inverse.flatMap { Destination.schemaAttribute(for: $0)?.relationship }
        let entry = InverseEntry(
            relationship: relationship, inverse: inverse,
            editList: access.flatMap { access in
                guard access.isToMany else { return nil }
                return { model, adding, owner in
                    access.editList(unsafeDowncast(model, to: Destination.self), adding, owner)
                }
            })
        inverses.withLock { inverses in
            if inverses.count < inversesLimit { inverses[use] = entry }
        }
        return entry
    }

    /// The key path of the inverse: declared on this side, or on the destination's relationship that names
    /// this one as its inverse, or inferred when neither side declares one.
    static func inverseKeyPath<Owner: PersistentModel, Destination: PersistentModel>(
        of relationship: AnyKeyPath, in _: Owner.Type, destination _: Destination.Type
    ) -> AnyKeyPath? {
        guard let attribute = Owner.schemaAttribute(for: relationship) else { return nil }
        if let declared = attribute.relationship?.inverse { return declared }
        if let declaredBack = Destination.schemaAttributes.first(where: {
            $0.relationship?.inverse == relationship
        }) {
            return declaredBack.keyPath
        }
        return Owner.inferredInverse(of: attribute)?.keyPath
    }
}
