@_spi(DataStoreInternals) import DataStoreCore

extension SyncEngine {
    /// Makes the device hold what the server holds, from a full copy: before the first pull, and when the pull
    /// token expired (the server's history was trimmed past it, or the server was erased). The device's
    /// unpushed changes are kept, as in any pull; the token becomes the server's newest.
    ///
    /// The token is read before the rows, so a transaction committed while the rows are read is applied again
    /// by the next pull, which changes nothing. What the app saved while the copy runs is kept as a pull keeps
    /// it (``catchUp(_:through:)``). `expired` says whether to count a resynchronisation in the
    /// status (the first pull is not one).
    func rebuildFromServer(cursorExists: Bool, expired: Bool) throws {
        let newest = try Self.newestToken(of: server)
        var through = localHistoryStart(pushed: try pushCursor().token)
        let known = try pendingChanges(after: through, through: &through)
        var pending = known ?? PendingChanges()
        var overlay = RowOverlay()
        for entity in serverRows.models.syncedEntities where local.schema.entity(named: entity) != nil {
            try progress.withLock { $0.beforePullReadsRows }?()
            let held = Dictionary(
                try localRows.all(entity).map { ($0.persistentIdentifier, $0) }, uniquingKeysWith: { $1 })
            // What the app saved since the device's unpushed work was read: a model it deleted meanwhile is not
            // among the rows read, and must not come back from the copy.
            if known != nil { try catchUp(&pending, through: &through) }
            let copies = try serverRows.all(entity).map {
                DataStoreSnapshot(
                    persistentIdentifier: toLocal($0.persistentIdentifier), values: localValues(of: $0))
            }
            let wanted = Set(copies.map(\.persistentIdentifier))
            overlay.load(held, for: Array(held.keys) + copies.map(\.persistentIdentifier))
            let entityDescription = local.schema.entity(named: entity)
            for copy in copies where !pending.deleted.contains(copy.persistentIdentifier) {
                // A model claiming a unique value of a device model not pushed yet: the push merges them.
                if held[copy.persistentIdentifier] == nil,
                    let mine = pending.holder(of: copy.values, in: entityDescription)
                {
                    try merge(
                        mine, into: copy.persistentIdentifier, values: copy.values, in: &overlay,
                        pending: &pending)
                    continue
                }
                let mine = pending.attributes[copy.persistentIdentifier] ?? []
                overlay.write(copy.persistentIdentifier, copy.values.filter { !mine.contains($0.key) })
            }
            // Models the server does not hold, unless the device made them and has not pushed them yet.
            for id in held.keys where !wanted.contains(id) && pending.attributes[id] == nil {
                overlay.delete(id)
            }
        }
        var request = overlay.request(author: Self.pullAuthor)
        var noted = try pushedCursor()
        try notePushed(in: &request, noted: &noted)
        if let newest {
            try Self.write(
                cursor: Self.pullCursorName, token: newest, exists: cursorExists, store: local.identifier,
                to: &request)
        }
        if !request.isEmpty { readThrough(ownSave: try local.save(request).token) }
        let text = newest.flatMap { try? HistoryTokenCoding.jsonString($0) }
        updateStatus {
            if expired { $0.resynchronisationCount += 1 }
            $0.pulledToken = text
        }
    }

    /// Uploads every synced model of the device when its history cannot be pushed transaction by
    /// transaction: trimmed past the server's cursor, the device store erased or recreated, or the server
    /// erased. Models the server lacks are inserted (one the server merges into a model of the same unique
    /// value adds its lists to that model's). For models it holds, the attributes in `winning` (the device's
    /// unpushed changes, when known) are written. When `winning` is `nil` (the device's history is gone), every
    /// differing attribute is written except those others wrote since the device last pulled
    /// (``EditsElsewhere``): there the device holds the value from before their edit. Models they deleted are
    /// not inserted again. Where that is unknown, the device's values win: no unpushed work is lost. Models the
    /// server holds and the device does not are kept: the device cannot tell its deletes from models it never
    /// pulled, and the next pull brings them back (a full copy right after the upload, when the device's
    /// history is gone); its known unpushed deletes are sent. Returns 0 (no conflict is decided).
    func uploadWhole(cursorExists: Bool, winning: PendingChanges?) throws -> Int {
        // A device whose history is empty (all of it trimmed) gets a transaction of the engine's own, so that
        // the upload has a token to record; without one, every later push and pull would upload it again, its
        // stale values winning each time.
        let newest = try Self.newestToken(of: local) ?? markLocalPosition()
        var request = DataStoreSaveChangesRequest(editingState: EditingState(author: pushAuthor))
        var rows: [DataStoreSnapshot] = []
        for entity in localRows.models.syncedEntities where server.schema.entity(named: entity) != nil {
            rows += try localRows.all(entity)
        }
        let ids = rows.map { IdentifierTranslation.translate($0.persistentIdentifier, to: server.identifier) }
        var wanted = Set(ids)
        for row in rows {
            for value in row.values.values {
                wanted.formUnion(
                    (value.relatedIdentifiers ?? []).map {
                        IdentifierTranslation.translate($0, to: server.identifier)
                    })
            }
        }
        let held = try serverRows.rows(wanted)
        // Without the device's history, what others did since it last pulled tells its stale values from its
        // edits (nil when that is unknown too: the device's values win).
        let elsewhere = winning == nil ? try editsElsewhere() : nil
        let uploaded = Set(ids).subtracting(elsewhere?.deleted ?? [])
        let references = ReferenceFilter(
            exists: { held[$0] != nil || uploaded.contains($0) },
            translate: { IdentifierTranslation.translate($0, to: self.server.identifier) })
        let uploadedRows = Dictionary(zip(ids, rows), uniquingKeysWith: { first, _ in first })
        for (row, id) in zip(rows, ids) where uploaded.contains(id) {
            guard let entity = server.schema.entity(named: id.entityName) else { continue }
            let values = references.filter(row.values, of: entity)
            if let current = held[id] {
                let mine = winning.map { $0.attributes[row.persistentIdentifier] ?? [] }
                var changed = values.filter {
                    current.values[$0.key] != $0.value
                        && mine?.contains($0.key) ?? !(elsewhere?.wrote($0.key, of: id) ?? false)
                }
                for (name, value) in changed {
                    guard let relationship = entity.relationship(named: name), relationship.isToMany,
                        let inverse = Self.inverse(of: relationship, in: entity.name, schema: server.schema)
                    else { continue }
                    // The device's list, from a view that may be out of date, never takes the server's other
                    // members off it: the members' own side, uploaded too, says whom the device took off.
                    let theirs = current.values[name] ?? .null
                    let order = PushedListOrder(
                        theirs: theirs.relatedIdentifiers ?? [], mine: value.relatedIdentifiers ?? [],
                        links: uploadedLinks(
                            to: id, through: inverse.name, theirs: theirs, mine: value,
                            side: { member in
                                // A member's side another device wrote is the server's; otherwise the device's.
                                if elsewhere?.wrote(inverse.name, of: member) == true {
                                    return held[member]?.values[inverse.name] ?? .null
                                }
                                return uploadedRows[member].map {
                                    references.translate($0.values[inverse.name] ?? .null)
                                }
                            }))
                    let merged = order.merged
                    if merged == order.theirs {
                        changed[name] = nil
                    } else {
                        changed[name] = .array(merged.map { .identifier($0) })
                        request.baselines[id, default: [:]][name] = theirs
                    }
                }
                if !changed.isEmpty {
                    request.updated.append(DataStoreSnapshot(persistentIdentifier: id, values: changed))
                }
            } else {
                // Merged into a server model of the same unique value, its lists add to that model's.
                request.baselines[id, default: [:]].merge(entity.newListBaselines(of: values)) {
                    $1
                }
                request.inserted.append(DataStoreSnapshot(persistentIdentifier: id, values: values))
            }
        }
        for id in winning?.deleted ?? [] {
            let serverID = IdentifierTranslation.translate(id, to: server.identifier)
            if try serverRows.row(serverID) != nil {
                request.deleted.append(DataStoreSnapshot(persistentIdentifier: serverID, values: [:]))
            }
        }
        if let newest {
            try Self.write(
                cursor: pushCursorName, token: newest, exists: cursorExists, store: server.identifier,
                to: &request)
        }
        guard !request.isEmpty else { return 0 }
        let result = try server.save(request)
        progress.withLock { $0.examinedLocal = newest }
        var corrections = DeviceCorrections(remapped: result.remappedIdentifiers)
        takeMergedLists(from: result.deleteRuleChanges, into: &corrections)
        try correctDevice(corrections)
        // Without its history the device cannot tell its deletes from models it never pulled: the server kept
        // them, and only a full copy brings them back to the device, which would otherwise never hold them. Now,
        // while everything the device holds is on the server; an app save in between makes it read again.
        if winning == nil {
            try retryingRacesWithTheApp {
                try rebuildFromServer(cursorExists: pullCursor().exists, expired: false)
            }
        }
        let text = newest.flatMap { try? HistoryTokenCoding.jsonString($0) }
        updateStatus {
            $0.pendingTransactionCount = 0
            $0.pushedToken = text
        }
        return 0
    }

    /// For an upload of the whole device: the models its list `mine` adds to the server's list `theirs`, and
    /// the server's members that it takes off, as each member's own side `inverse` says after the upload
    /// (`side`: the value the upload leaves on the server, `nil` for a model the device does not hold). A
    /// member the device does not hold stays; a model whose side names another owner is not added.
    private func uploadedLinks(
        to owner: PersistentIdentifier, through inverse: String, theirs: SnapshotValue, mine: SnapshotValue,
        side: (PersistentIdentifier) -> SnapshotValue?
    ) -> (linked: Set<PersistentIdentifier>, unlinked: Set<PersistentIdentifier>) {
        func names(_ member: PersistentIdentifier) -> Bool? {
            side(member).map { $0.relatedIdentifiers?.contains(owner) == true }
        }
        let held = Set(theirs.relatedIdentifiers ?? [])
        let linked = Set(mine.relatedIdentifiers ?? []).subtracting(held).filter { names($0) ?? true }
        let unlinked = held.filter { names($0) == false }
        return (linked, unlinked)
    }

    /// What others changed on the server since the device last pulled (``EditsElsewhere``). When the server's
    /// history was trimmed past the device's pull cursor, what is left of it is all newer than that pull, and
    /// tells apart the edits it holds (those in the trimmed part are unknown). `nil` before the first pull, or
    /// when the server was erased or recreated since (its history is not after the device's pull).
    private func editsElsewhere() throws -> EditsElsewhere? {
        guard let pulled = try pullCursor().token else { return nil }
        var edits = EditsElsewhere(ownAuthor: pushAuthor)
        do {
            try forEachHistoryPage(of: server, after: pulled) {
                edits.read($0)
                return true
            }
        } catch let error as DataStoreError where error.code == .historyTokenExpired {
            guard !error.isFromErasedOrRecreatedStore else { return nil }
            // Trimmed past the pull, before or while it was read: what is left is all newer than the pull.
            edits = EditsElsewhere(ownAuthor: pushAuthor)
            try forEachHistoryPage(of: server, after: nil) {
                edits.read($0)
                return true
            }
        }
        return edits
    }
}
