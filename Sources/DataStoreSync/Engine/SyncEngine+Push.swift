@_spi(DataStoreInternals) import DataStoreCore

extension SyncEngine {
    /// What a push did.
    struct PushOutcome {
        var transactions = 0
        var conflicts = 0
        var uploadedWhole = false
    }

    /// The device transactions a push sends, as surveyed before it sends them.
    struct UnpushedHistory {
        /// The push reads after this token (from the device's first transaction when `nil`)...
        let start: Local.Token?
        /// ...through this one (`nil`: there are none).
        var end: Local.Token?
        /// How many there are, leaving out the engine's own pulls.
        var count = 0
        /// What they write.
        var writes = PendingWrites()
        /// What the engine's own pulls and corrections among them write: a pull's save can change a list the
        /// device has not pushed through the members' side (the store's upkeep), so its pushed value is not
        /// what the device shows (``addChanges(of:to:corrections:sides:writesOfPulls:)``).
        var writesOfPulls = PendingWrites()
        /// All of them, when they fit in one page.
        var onlyPage: [Local.HistoryType]?
    }

    /// Sends every device transaction after the server's cursor for this device, one server transaction each,
    /// with the cursor written in the same transaction; uploads the device whole when its history no longer
    /// reaches back to the cursor.
    func performPush() throws -> PushOutcome {
        updateStatus { $0.isPushing = true }
        defer { updateStatus { $0.isPushing = false } }
        var outcome = PushOutcome()
        var cursor = try pushCursor()
        // No cursor, and the server is not the one the device pulled from (it was erased or recreated): it
        // holds none of what the device pushed or pulled before. The device uploads what it holds; where
        // another device has uploaded a model already, only what this device had not pushed wins.
        if try !cursor.exists && serverWasErased() {
            let unpushed = try pendingChanges(after: pushedCursor().token)
            outcome.conflicts = try uploadWhole(cursorExists: false, winning: unpushed)
            outcome.uploadedWhole = true
            updateStatus { $0.resynchronisationCount += 1 }
            return outcome
        }
        guard let unpushed = try unpushedHistory(after: cursor.token) else {
            outcome.conflicts = try uploadWhole(cursorExists: cursor.exists, winning: nil)
            outcome.uploadedWhole = true
            updateStatus { $0.resynchronisationCount += 1 }
            return outcome
        }
        updateStatus { $0.pendingTransactionCount = unpushed.count }
        var laterWrites = unpushed.writes
        // The transaction before the next one: what the many-to-many sides have read through after it.
        var previous = unpushed.start
        do {
            try forEachPage(of: unpushed) { transactions in
                for transaction in transactions {
                    try push(
                        transaction, after: previous, cursor: &cursor, laterWrites: &laterWrites,
                        writesOfPulls: unpushed.writesOfPulls, outcome: &outcome)
                    previous = transaction.token
                }
            }
        } catch let error as DataStoreError where error.code == .historyTokenExpired {
            // Trimmed while the push read it: what is left unpushed is unknown, as at the push's start.
            outcome.conflicts += try uploadWhole(cursorExists: cursor.exists, winning: nil)
            outcome.uploadedWhole = true
            updateStatus { $0.resynchronisationCount += 1 }
        }
        return outcome
    }

    /// Sends one device transaction as one server transaction, with the push cursor, then corrects the device
    /// where the server's values differ from what it sent (except attributes `laterWrites` says a later
    /// transaction of this push writes again). A transaction of the engine's own pulls is only read through.
    /// `previous` is the device transaction before it (see ``listSides(before:previous:)``); `writesOfPulls`
    /// are what the engine's own saves among the transactions pushed write.
    private func push(
        _ transaction: Local.HistoryType, after previous: Local.Token?,
        cursor: inout (exists: Bool, token: Local.Token?), laterWrites: inout PendingWrites,
        writesOfPulls: PendingWrites, outcome: inout PushOutcome
    ) throws {
        let sides = try listSides(before: transaction, previous: previous)
        var handled = false
        defer { putBack(sides, reading: handled ? transaction : nil) }
        // Read through only what is done: a failed push must be tried again, not skipped.
        guard transaction.author != Self.pullAuthor else {
            progress.withLock { $0.examinedLocal = transaction.token }
            handled = true
            return
        }
        var request = DataStoreSaveChangesRequest(editingState: EditingState(author: pushAuthor))
        var corrections = DeviceCorrections()
        let conflicts = try addChanges(
            of: transaction.changes, to: &request, corrections: &corrections, sides: sides,
            writesOfPulls: writesOfPulls)
        outcome.conflicts += conflicts
        try Self.write(
            cursor: pushCursorName, token: transaction.token, exists: cursor.exists,
            store: server.identifier,
            to: &request)
        let result = try server.save(request)
        cursor.exists = true
        handled = true
        progress.withLock { $0.examinedLocal = transaction.token }
        try progress.withLock { $0.afterPushSaved }?()
        corrections.remapped.merge(result.remappedIdentifiers) { $1 }
        takeMergedLists(from: result.deleteRuleChanges, into: &corrections)
        // An attribute a later transaction of this push writes again is corrected after that one: correcting
        // it now would take that edit back on the device meanwhile.
        laterWrites.remove(transaction.changes)
        corrections.values = laterWrites.withoutWrittenAttributes(corrections.values)
        try correctDevice(corrections)
        outcome.transactions += 1
        let token = try? HistoryTokenCoding.jsonString(transaction.token)
        updateStatus {
            $0.pushedTransactionCount += 1
            $0.pendingTransactionCount = max(0, $0.pendingTransactionCount - 1)
            $0.pushedToken = token
            $0.conflictCount += conflicts
        }
    }

    /// Notes, as corrections of the device, the lists the server holds after a push where they differ from
    /// what the push sent: lists merged with other devices' edits, or filed by the server's inverse upkeep. A
    /// merge that leaves the server's list as it was commits nothing, so no pull would bring it to the device.
    func takeMergedLists(
        from changes: [PlannedChange], into corrections: inout DeviceCorrections
    ) {
        for change in changes
        where change.kind == .update && serverRows.models.syncs(change.identifier.entityName) {
            guard let entity = server.schema.entity(named: change.identifier.entityName) else { continue }
            for name in change.updatedAttributes where entity.relationship(named: name)?.isToMany == true {
                guard let value = change.values[name] else { continue }
                corrections.values[toLocal(change.identifier), default: [:]][name] =
                    IdentifierTranslation.translate(value, to: local.identifier)
            }
        }
    }

    /// What a push of the device's transactions after `token` sends, surveyed a page at a time: how many
    /// there are, through which token, and what they write. `nil` when they cannot be pushed one by one: the
    /// history was trimmed past the token, or the device store was erased or recreated since (a token of
    /// another epoch), or the server has no cursor and the device's history no longer starts at its first
    /// transaction.
    private func unpushedHistory(after token: Local.Token?) throws -> UnpushedHistory? {
        let start = localHistoryStart(pushed: token)
        var unpushed = UnpushedHistory(start: start)
        var pages = 0
        // No cursor: everything must go, so the history must start at the first transaction (a store with
        // models but no history at all is uploaded whole too).
        let whole = try forEachDeviceHistoryPage(after: start) { page in
            pages += 1
            // One page is kept, and pushed without a second read; more are read again, page by page.
            unpushed.onlyPage = pages == 1 ? page : nil
            let own = page.filter { $0.author != Self.pullAuthor }
            unpushed.count += own.count
            unpushed.writes.add(own)
            unpushed.writesOfPulls.add(page.filter { $0.author == Self.pullAuthor })
            unpushed.end = page.last?.token
        }
        return whole ? unpushed : nil
    }

    /// Hands `body` the transactions `unpushed` surveyed, in order, a page at a time.
    private func forEachPage(
        of unpushed: UnpushedHistory, _ body: ([Local.HistoryType]) throws -> Void
    ) throws {
        if let page = unpushed.onlyPage { return try body(page) }
        guard let end = unpushed.end else { return }
        try forEachHistoryPage(of: local, after: unpushed.start, through: end) {
            try body($0)
            return true
        }
    }

    /// Whether the server was erased or recreated since the device last pulled from it: its pull token is of
    /// another epoch.
    private func serverWasErased() throws -> Bool {
        guard let pulled = try pullCursor().token else { return false }
        do {
            _ = try server.fetchHistory(
                HistoryDescriptor(predicate: HistoryPredicates.after(pulled), fetchLimit: 1))
            return false
        } catch let error as DataStoreError where error.code == .historyTokenExpired {
            return error.isFromErasedOrRecreatedStore
        }
    }

    /// Where the device's history needs reading from: after what the server received, or after what this
    /// engine already read (its own pulls, which never travel), whichever is later.
    func localHistoryStart(pushed token: Local.Token?) -> Local.Token? {
        let examined = progress.withLock { $0.examinedLocal }
        guard let examined, token.map({ $0 < examined }) ?? true else { return token }
        return examined
    }

    /// Adds one device transaction's changes to a server request; returns the conflicts it decided. `sides`
    /// are the device's many-to-many sides before the transaction, when it has such relationships.
    /// A list the engine's own saves in the push's range write too (`writesOfPulls`) is corrected to the
    /// server's after the push even when the push sent it unchanged: a pull's save may have refiled its members
    /// on the device since the app saved it.
    private func addChanges(
        of changes: [Local.HistoryType.Change], to request: inout DataStoreSaveChangesRequest,
        corrections: inout DeviceCorrections, sides earlierSides: DeviceListSides<Local.Token>?,
        writesOfPulls: PendingWrites
    ) throws -> Int {
        var remapped = progress.withLock { $0.remapped }
        let changes = changes.filter { localRows.models.syncs($0.changedPersistentIdentifier.entityName) }
        func read() throws -> ([PersistentIdentifier], [PersistentIdentifier: DataStoreSnapshot]) {
            let ids = changes.map { self.toServer($0.changedPersistentIdentifier, remapped) }
            var wanted = Set(ids)
            for change in changes {
                for value in change.values.values {
                    wanted.formUnion((value.relatedIdentifiers ?? []).map { self.toServer($0, remapped) })
                }
            }
            return (ids, try serverRows.rows(wanted))
        }
        var (ids, held) = try read()
        // An update or delete of a model the server lacks: a model merged into another on insert by a push
        // whose correction a crash prevented goes to that model (as it does when the engine remembers the
        // merge); one deleted elsewhere is dropped below.
        let lacking = zip(changes, ids).filter { $0.0.kind != .insert && held[$0.1] == nil }.map(\.1)
        if !lacking.isEmpty {
            let merged = try mergedHolders(of: lacking)
            if !merged.isEmpty {
                remapped.merge(merged) { $1 }
                progress.withLock { $0.remapped.merge(merged) { $1 } }
                corrections.remapped.merge(merged) { $1 }
                (ids, held) = try read()
            }
        }
        let toServer = { [remapped] (id: PersistentIdentifier) in self.toServer(id, remapped) }
        let inserted = Set(zip(changes, ids).filter { $0.0.kind == .insert }.map(\.1))
        let deleted = Set(zip(changes, ids).filter { $0.0.kind == .delete }.map(\.1))
        let references = ReferenceFilter(
            exists: { (held[$0] != nil || inserted.contains($0)) && !deleted.contains($0) },
            translate: toServer)
        var conflicts = 0
        // The members' side of each list the transaction edits, read once per inverse.
        var sides: [String: InverseSideWrites] = [:]
        for (change, id) in zip(changes, ids) {
            guard let entity = server.schema.entity(named: id.entityName) else { continue }
            let current = held[id]
            switch change.kind {
            case .insert:
                let values = references.filter(change.values, of: entity)
                // The model's lists started empty on the device: when the server already holds it, or merges it
                // into the holder of its unique value, they add to the lists there instead of replacing them
                // (another device's items stay on a trip of the same name).
                request.baselines[id, default: [:]].merge(entity.newListBaselines(of: values)) {
                    $1
                }
                if let current {
                    // Already on the server (its unique value was taken, or a push repeated): an update.
                    let changed = values.filter { current.values[$0.key] != $0.value }
                    if !changed.isEmpty {
                        request.updated.append(DataStoreSnapshot(persistentIdentifier: id, values: changed))
                    }
                } else {
                    request.inserted.append(DataStoreSnapshot(persistentIdentifier: id, values: values))
                }
            case .update:
                // Deleted on the server meanwhile: the delete wins, and the next pull removes the device's copy.
                guard let current else { continue }
                var values: [String: SnapshotValue] = [:]
                for name in change.updatedAttributes {
                    guard let written = change.values[name] else { continue }
                    var mine = references.translate(written)
                    let theirs = current.values[name] ?? .null
                    let base = change.previousValues?[name].map(references.translate)
                    if let base, theirs != base, theirs != mine {
                        conflicts += 1
                        let chosen = resolver(
                            SyncConflict(model: id, attribute: name, base: base, local: mine, remote: theirs))
                        if chosen != mine {
                            corrections.values[change.changedPersistentIdentifier, default: [:]][name] =
                                IdentifierTranslation.translate(chosen, to: local.identifier)
                            mine = chosen
                        }
                    }
                    if let relationship = entity.relationship(named: name) {
                        let inverse =
                            relationship.isToMany
                            ? Self.inverse(of: relationship, in: id.entityName, schema: server.schema) : nil
                        if relationship.isToMany,
                            let links = listLinks(
                                of: id, relationship, inverse: inverse, base: base, mine: mine,
                                theirs: theirs, sides: &sides, earlierSides: earlierSides,
                                changes: zip(changes, ids), references)
                        {
                            let order = PushedListOrder(
                                theirs: theirs.relatedIdentifiers ?? [], mine: mine.relatedIdentifiers ?? [],
                                links: links)
                            let merged = order.merged
                            if merged != order.mine
                                || writesOfPulls.writes(name, of: change.changedPersistentIdentifier)
                            {
                                // The device saved the list from its own view, or a pull refiled it on the
                                // device since: it takes the server's.
                                corrections.values[change.changedPersistentIdentifier, default: [:]][name] =
                                    IdentifierTranslation.translate(
                                        .array(merged.map { .identifier($0) }), to: local.identifier)
                            }
                            // Without previous values a to-one inverse side, written as any attribute, files
                            // the members on its own: the list is sent only when its order differs. Otherwise
                            // the list carries the links.
                            let linksTravelAlone = base == nil && inverse?.isToMany == false
                            guard merged != (linksTravelAlone ? order.linksAlone : order.theirs) else {
                                continue
                            }
                            // Every member is on the server: those of its list, and those linked (checked).
                            request.baselines[id, default: [:]][name] = theirs
                            values[name] = .array(merged.map { .identifier($0) })
                            continue
                        }
                        mine = references.keepExisting(mine)
                    }
                    if mine != theirs { values[name] = mine }
                }
                if values.isEmpty {
                    request.baselines[id] = nil
                } else {
                    request.updated.append(DataStoreSnapshot(persistentIdentifier: id, values: values))
                }
            case .delete:
                if current != nil {
                    request.deleted.append(DataStoreSnapshot(persistentIdentifier: id, values: [:]))
                }
            }
        }
        return conflicts
    }

    /// What a device transaction did to `owner`'s list `relationship` (whose inverse is `inverse`), for
    /// ``PushedListOrder``: with previous values (`base`), the models it added to the list since the base and
    /// those it removed; without them, what the members' own side (to-one or to-many), as the transaction's
    /// changes wrote it, says of the server's list `theirs` (``InverseSideWrites``, kept in `sides` for the
    /// transaction's other lists). `nil` for a list without previous values and without an inverse: it is
    /// written whole.
    private func listLinks(
        of owner: PersistentIdentifier, _ relationship: Schema.Relationship, inverse: Schema.Relationship?,
        base: SnapshotValue?, mine: SnapshotValue, theirs: SnapshotValue,
        sides: inout [String: InverseSideWrites], earlierSides: DeviceListSides<Local.Token>?,
        changes: some Sequence<(Local.HistoryType.Change, PersistentIdentifier)>,
        _ references: ReferenceFilter
    ) -> (linked: Set<PersistentIdentifier>, unlinked: Set<PersistentIdentifier>)? {
        if let base {
            let before = Set(base.relatedIdentifiers ?? [])
            let after = Set(mine.relatedIdentifiers ?? [])
            return (after.subtracting(before).filter(references.exists), before.subtracting(after))
        }
        guard let inverse else { return nil }
        let key = relationship.destination + "." + inverse.name
        let side =
            sides[key]
            ?? InverseSideWrites(
                inverse.name, of: relationship.destination, in: changes, references,
                earlier: inverse.isToMany ? { earlierSides?.side(of: $0, inverse.name) } : nil)
        sides[key] = side
        return side.links(to: owner, theirs: theirs.relatedIdentifiers ?? [], references)
    }

    /// The server's identifier of device model `id`: translated, and the model it was merged into, if any.
    private func toServer(
        _ id: PersistentIdentifier, _ remapped: [PersistentIdentifier: PersistentIdentifier]
    )
        -> PersistentIdentifier
    {
        let translated = IdentifierTranslation.translate(id, to: server.identifier)
        return remapped[translated] ?? translated
    }

    /// The relationship's inverse, declared on either side.
    static func inverse(of relationship: Schema.Relationship, in entity: String, schema: Schema)
        -> Schema.Relationship?
    {
        inverseName(of: relationship, in: entity, schema: schema).flatMap {
            schema.entity(named: relationship.destination)?.relationship(named: $0)
        }
    }
}
