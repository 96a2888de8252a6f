@_spi(DataStoreInternals) import DataStoreCore

/// What the device must change after a push so that it holds what the server now holds: attributes a resolver
/// decided against the device's value, lists whose order or members the server's merge changed
/// (`PushedListOrder`), and models the server merged into another (an insert whose unique value another device
/// had taken).
struct DeviceCorrections {
    /// Attribute values by device identifier.
    var values: [PersistentIdentifier: [String: SnapshotValue]] = [:]
    /// Proposed server identifier → the server model it was merged into.
    var remapped: [PersistentIdentifier: PersistentIdentifier] = [:]
}

extension SyncEngine {
    /// Writes `corrections` to the device, as a pull would, in one save authored ``pullAuthor``.
    ///
    /// A crash before this save loses nothing: the pushed transaction comes back on the next pull, and pulling
    /// applies the device's own transactions too, which makes the same corrections.
    func correctDevice(_ corrections: DeviceCorrections) throws {
        guard !corrections.values.isEmpty || !corrections.remapped.isEmpty else { return }
        if !corrections.remapped.isEmpty {
            progress.withLock { $0.remapped.merge(corrections.remapped) { $1 } }
        }
        var overlay = RowOverlay()
        var ids = Array(corrections.values.keys)
        for (proposed, holder) in corrections.remapped { ids += [toLocal(proposed), toLocal(holder)] }
        for values in corrections.values.values {
            for value in values.values { ids += value.relatedIdentifiers ?? [] }
        }
        try load(ids, into: &overlay)
        // A corrected list may name models the device has not pulled yet: the pull that brings them files them.
        let held = ReferenceFilter(exists: { overlay.row($0) != nil }, translate: { $0 })
        // Members a corrected list no longer holds were filed elsewhere on the server: they take their own side
        // from the server too, so that the device never shows them on no list (an upload after the device lost
        // its history would send that as its edit).
        var dropped: [PersistentIdentifier: String] = [:]
        for (id, values) in corrections.values {
            guard let row = overlay.row(id), let entity = local.schema.entity(named: id.entityName) else {
                continue
            }
            for (name, value) in values {
                guard let relationship = entity.relationship(named: name),
                    let inverse = Self.toOneInverse(of: relationship, in: id.entityName, schema: local.schema)
                else { continue }
                let kept = Set(value.relatedIdentifiers ?? [])
                for member in row[attribute: name].relatedIdentifiers ?? [] where !kept.contains(member) {
                    dropped[member] = inverse
                }
            }
        }
        // Members filed on an owner the device has not pulled yet stay on the device's list until the pull
        // that brings that owner moves them: on no list meanwhile, an upload after lost history would send that.
        var awaitingTheirOwner: Set<PersistentIdentifier> = []
        if !dropped.isEmpty {
            let rows = try serverRows.rows(
                dropped.keys.map { IdentifierTranslation.translate($0, to: server.identifier) })
            let sides = rows.values.map { (toLocal($0.persistentIdentifier), localValues(of: $0)) }
            try load(
                Array(dropped.keys) + sides.flatMap { $0.1.values.flatMap { $0.relatedIdentifiers ?? [] } },
                into: &overlay)
            for (member, values) in sides where overlay.row(member) != nil {
                guard let inverse = dropped[member], let side = values[inverse] else { continue }
                let heldSide = held.keepExisting(side)
                if side != .null, heldSide == .null {
                    awaitingTheirOwner.insert(member)
                    continue
                }
                overlay.write(member, [inverse: heldSide])
            }
        }
        for (id, values) in corrections.values {
            guard let row = overlay.row(id) else { continue }
            var written = values.mapValues { held.keepExisting($0) }
            if !awaitingTheirOwner.isEmpty {
                for (name, value) in written {
                    guard let list = value.relatedIdentifiers,
                        let old = row[attribute: name].relatedIdentifiers,
                        old.contains(where: awaitingTheirOwner.contains)
                    else { continue }
                    written[name] = .array(
                        Self.restoring(awaitingTheirOwner, from: old, into: list).map(
                            SnapshotValue.identifier))
                }
            }
            overlay.write(id, written)
        }
        let holders = try serverRows.rows(corrections.remapped.values)
        try load(
            holders.values.flatMap { localValues(of: $0).values.flatMap { $0.relatedIdentifiers ?? [] } },
            into: &overlay)
        for (proposed, holder) in corrections.remapped {
            guard let row = holders[holder] else { continue }
            // A device that holds neither model deleted one since the change pushed: its own model (its delete
            // goes to the server's model when pushed), or the server's model an earlier correction or pull
            // merged it into. Writing the server's model would bring back what the app deleted, and a pull
            // leaves a model the device deleted alone, so the server's delete would never remove it.
            guard overlay.row(toLocal(proposed)) != nil || overlay.row(toLocal(holder)) != nil else {
                continue
            }
            // The device's model becomes the server's: same values, the device's links moved over (links to
            // models it has not pulled yet are made by the pull that brings them).
            overlay.write(toLocal(holder), localValues(of: row).mapValues { held.keepExisting($0) })
            try relink(toLocal(proposed), to: toLocal(holder), in: &overlay)
            overlay.delete(toLocal(proposed))
        }
        // An app save made since the push is newer than the correction and is pushed after it: it wins.
        let request = overlay.request(author: Self.pullAuthor, mergePolicy: .mergeByPropertyObjectTrump)
        if !request.isEmpty { readThrough(ownSave: try local.save(request).token) }
    }

    /// `list` with the members of `old` in `kept` that it lacks put back where they stood in `old`: after the
    /// nearest member before them that the result holds, or first.
    static func restoring(
        _ kept: Set<PersistentIdentifier>, from old: [PersistentIdentifier], into list: [PersistentIdentifier]
    ) -> [PersistentIdentifier] {
        var result = list
        var present = Set(list)
        for (index, member) in old.enumerated() where kept.contains(member) && !present.contains(member) {
            let after = old[..<index].last { present.contains($0) }
            let position = after.flatMap { result.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
            result.insert(member, at: position)
            present.insert(member)
        }
        return result
    }

    /// Adds the device's rows of `identifiers` not loaded yet to the overlay.
    func load(_ identifiers: [PersistentIdentifier], into overlay: inout RowOverlay) throws {
        let missing = identifiers.filter { !overlay.isLoaded($0) }
        guard !missing.isEmpty else { return }
        overlay.load(try localRows.rows(missing), for: missing)
    }

    /// A server row's values as the device stores them: identifiers translated, attributes the device's
    /// schema does not have (a newer app version's) left out.
    func localValues(of row: DataStoreSnapshot) -> [String: SnapshotValue] {
        guard let entity = local.schema.entity(named: row.persistentIdentifier.entityName) else { return [:] }
        var values: [String: SnapshotValue] = [:]
        for attribute in entity.attributes {
            if let value = row.values[attribute.name] {
                values[attribute.name] = IdentifierTranslation.translate(value, to: local.identifier)
            }
        }
        return values
    }

    /// Points the device models that link back to `old` (through relationships with an inverse) at `new`,
    /// or unlinks them when `new` is `nil`: what the server's delete rules did to the models it held, done to
    /// the device's models the server did not know about.
    func relink(_ old: PersistentIdentifier, to new: PersistentIdentifier?, in overlay: inout RowOverlay)
        throws
    {
        guard let row = overlay.row(old), let entity = local.schema.entity(named: old.entityName) else {
            return
        }
        for relationship in entity.relationships {
            guard let inverse = Self.inverseName(of: relationship, in: old.entityName, schema: local.schema)
            else {
                continue
            }
            let targets = row[attribute: relationship.name].relatedIdentifiers ?? []
            try load(targets, into: &overlay)
            for target in targets {
                guard let held = overlay.row(target) else { continue }
                let value = held[attribute: inverse]
                let replaced: SnapshotValue
                switch value {
                case .identifier(old):
                    replaced = new.map(SnapshotValue.identifier) ?? .null
                case .array(let list):
                    replaced = .array(
                        list.compactMap { $0 == .identifier(old) ? new.map(SnapshotValue.identifier) : $0 })
                default:
                    continue
                }
                if replaced != value { overlay.write(target, [inverse: replaced]) }
            }
        }
    }

    /// The name of the relationship's inverse: the declared one, or the destination's relationship that names
    /// this one as its inverse.
    static func inverseName(of relationship: Schema.Relationship, in entity: String, schema: Schema)
        -> String?
    {
        if let name = relationship.inverse { return name }
        return schema.entity(named: relationship.destination)?.relationships.first {
            $0.inverse == relationship.name && $0.destination == entity
        }?.name
    }

    /// The name of a list's inverse when it is a to-one (an item's `trip` for a trip's `items`): each member
    /// then names one owner, which says which list it belongs on. `nil` for a to-one relationship, or a list
    /// whose inverse is a list too or missing.
    static func toOneInverse(of relationship: Schema.Relationship, in entity: String, schema: Schema)
        -> String?
    {
        guard relationship.isToMany, let inverse = inverseName(of: relationship, in: entity, schema: schema),
            schema.entity(named: relationship.destination)?.relationship(named: inverse)?.isToMany == false
        else { return nil }
        return inverse
    }
}
