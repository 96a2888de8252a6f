@_spi(DataStoreInternals) import DataStoreCore

extension SyncEngine {
    /// What a pull did.
    struct PullOutcome {
        var applied = 0
        var read = 0
        var resynchronised = false
    }

    /// Applies the server's transactions after the device's pull token, in server order, a page of
    /// ``historyPageSize`` per local save with the token in the same save; rebuilds the device from the server
    /// when the token expired (or before the first pull). An app save that races with the pull's save makes it
    /// refuse (merge policy `.error`, or a model the app deleted meanwhile); the pull then reads again, up to 8
    /// times.
    func performPull() throws -> PullOutcome {
        updateStatus { $0.isPulling = true }
        defer { updateStatus { $0.isPulling = false } }
        return try retryingRacesWithTheApp { try pullOnce() }
    }

    /// Runs `body`, a local save built from rows read before it, again when an app save made meanwhile makes
    /// the store refuse it (merge policy `.error`, or a model the app deleted), up to 8 times.
    func retryingRacesWithTheApp<Result>(_ body: () throws -> Result) throws -> Result {
        var attempt = 0
        while true {
            do {
                return try body()
            } catch let error as DataStoreError
                where [.mergeConflict, .modelNotFound].contains(error.code) && attempt < 8
            {
                attempt += 1
            } catch is DeviceHistoryTrimmedDuringPull where attempt < 8 {
                attempt += 1
            }
        }
    }

    /// What a pull carries from one page to the next.
    struct PullState {
        /// What the device had not pushed, through its transaction `through`.
        var pending: PendingChanges
        /// The newest device transaction `pending` covers.
        var through: Local.Token?
        /// Whether each page catches up with the app saves made since `through` (``catchUp(_:through:)``):
        /// not when the device's history no longer reached the push cursor.
        var catchingUp: Bool
        /// The pull cursor, written with each page.
        var cursor: (exists: Bool, token: Server.Token?)
        /// The device's record of what the server received, written with each page.
        var noted: (exists: Bool, token: Local.Token?)
        /// Unique values the device's own pushes gave its models later in server order than the pages read so
        /// far, which a page's older write of another model met (``explainRefusal(naming:state:)``): every
        /// page writes the models holding them as the server holds them now.
        var uniqueValuesAhead = UniqueValuesAhead()
        var outcome = PullOutcome()
    }

    private func pullOnce() throws -> PullOutcome {
        var through = localHistoryStart(pushed: try pushCursor().token)
        var known = try pendingChanges(after: through, through: &through)
        if known == nil {
            // The device's history no longer reaches what the server received, so its unpushed work is unknown
            // and a pull would write over it: the device uploads what it holds first.
            _ = try performPush()
            through = localHistoryStart(pushed: try pushCursor().token)
            known = try pendingChanges(after: through, through: &through)
        }
        let cursor = try pullCursor()
        guard let token = cursor.token else {
            // The first pull: a full copy is cheaper than replaying history, and history may be trimmed.
            try rebuildFromServer(cursorExists: cursor.exists, expired: false)
            return PullOutcome()
        }
        var state = PullState(
            pending: known ?? PendingChanges(), through: through, catchingUp: known != nil, cursor: cursor,
            noted: try pushedCursor())
        do {
            try forEachHistoryPage(of: server, after: token) { transactions in
                try progress.withLock { $0.beforePullReadsRows }?()
                try applyPage(transactions, state: &state)
                return true
            }
        } catch let error as DataStoreError where error.code == .historyTokenExpired {
            // The device's unpushed work goes first: a rebuild keeps what is pending, but a server that
            // was erased no longer holds what the device pushed before, and the upload brings it back.
            _ = try performPush()
            try rebuildFromServer(cursorExists: state.cursor.exists, expired: true)
            state.outcome.resynchronised = true
        }
        return state.outcome
    }

    /// Applies one page of server transactions in one local save that moves the pull cursor to its last. When
    /// `state` is catching up, the page first adds what the app saved since the device's history was last
    /// read (``catchUp(_:through:)``), once it has read the rows it writes.
    ///
    /// A save that refuses is explained before the page is applied again (up to 8 times): an app save made
    /// since the page read the device's history is caught up with, and a device model holding the unique value
    /// of a model the page inserts, which the device pushed already, is merged into that model. The server
    /// merged it so when the device pushed it; the correction that follows a push does the same on the device,
    /// unless a crash or a lost connection cut it short.
    private func applyPage(_ transactions: [Server.HistoryType], state: inout PullState) throws {
        var attempt = 0
        while true {
            do {
                return try applyPageOnce(transactions, state: &state)
            } catch let error as DataStoreError where error.code == .mergeConflict && attempt < 8 {
                attempt += 1
                guard let model = error.identifier, try explainRefusal(naming: model, state: &state) else {
                    throw error
                }
            }
        }
    }

    /// Whether a page's save that refused naming the device's `model` can be explained, so that the page is
    /// applied again: an app save of `model` that the history read since adds to what is pending; or the
    /// server holds `model`, which the device pushed ahead of its pull, and the page wrote one of its unique
    /// values into an older state of another model (an insert whose delete comes in a later page), so the
    /// pages write the models holding those values as the server holds them now (``UniqueValuesAhead``); or
    /// `model` is a device model with nothing unpushed that holds unique values and that the server does not
    /// hold (a model the server merged into another on its push, whose correction never ran), which the
    /// pending changes then name as their holder, for the page to merge.
    private func explainRefusal(naming model: PersistentIdentifier, state: inout PullState) throws -> Bool {
        if state.catchingUp {
            let before = (state.pending.attributes[model], state.pending.deleted.contains(model))
            try catchUp(&state.pending, through: &state.through)
            // The app saved the model since the page read the history: applied again, the page leaves what the
            // app wrote alone (or merges the app's new model, when the refusal was an upsert into it). What
            // was pending before does not explain the refusal.
            if state.pending.attributes[model] != before.0
                || state.pending.deleted.contains(model) != before.1
            {
                return true
            }
        }
        guard !state.pending.deleted.contains(model),
            let entity = local.schema.entity(named: model.entityName), !entity.uniqueConstraints.isEmpty,
            let row = try localRows.row(model)
        else { return false }
        let keys = UniqueKeys.of(row.values, in: entity)
        if try serverRows.row(IdentifierTranslation.translate(model, to: server.identifier)) != nil {
            return state.uniqueValuesAhead.note(model, holding: keys)
        }
        guard state.pending.attributes[model] == nil,
            keys.contains(where: { state.pending.uniqueHolders[$0] != model })
        else { return false }
        for key in keys { state.pending.uniqueHolders[key] = model }
        return true
    }

    /// ``applyPage(_:state:)`` once.
    private func applyPageOnce(_ transactions: [Server.HistoryType], state: inout PullState) throws {
        guard let last = transactions.last else { return }
        var overlay = RowOverlay()
        var ids: [PersistentIdentifier] = []
        for transaction in transactions {
            for change in transaction.changes
            where serverRows.models.syncs(change.changedPersistentIdentifier.entityName) {
                ids.append(toLocal(change.changedPersistentIdentifier))
                for value in change.values.values { ids += (value.relatedIdentifiers ?? []).map(toLocal) }
            }
        }
        try load(ids, into: &overlay)
        if state.catchingUp { try catchUp(&state.pending, through: &state.through) }
        var applied = 0
        for transaction in transactions {
            let changed = try apply(transaction.changes, to: &overlay, keeping: &state.pending)
            if changed && transaction.author != pushAuthor { applied += 1 }
        }
        try writeAsTheServerHoldsThem(state.uniqueValuesAhead, in: &overlay, keeping: state.pending)
        dropMembersFiledElsewhere(in: &overlay)
        var request = overlay.request(author: Self.pullAuthor)
        try Self.write(
            cursor: Self.pullCursorName, token: last.token, exists: state.cursor.exists,
            store: local.identifier,
            to: &request)
        try notePushed(in: &request, noted: &state.noted)
        try progress.withLock { $0.beforePullSaves }?()
        readThrough(ownSave: try local.save(request).token)
        state.cursor.exists = true
        state.outcome.applied += applied
        state.outcome.read += transactions.count
        let text = try? HistoryTokenCoding.jsonString(last.token)
        updateStatus {
            $0.pulledTransactionCount += applied
            $0.readServerTransactionCount += transactions.count
            $0.pulledToken = text
        }
    }

    /// Applies one server transaction's changes to the overlay, leaving alone what the device changed and has
    /// not pushed yet (its push comes later in server order, so its values win). Returns whether the
    /// transaction holds a synced change.
    private func apply(
        _ changes: [Server.HistoryType.Change], to overlay: inout RowOverlay,
        keeping pending: inout PendingChanges
    ) throws -> Bool {
        var synced = false
        // The models the transaction inserts: a change before an insert may name the model already (a new
        // owner's list, written before the items made with it), and dropping that link would let the store
        // append the item when its own side names the owner, out of the list's order.
        var inserting: Set<PersistentIdentifier> = []
        for change in changes
        where change.kind == .insert && serverRows.models.syncs(change.changedPersistentIdentifier.entityName)
        {
            let id = toLocal(change.changedPersistentIdentifier)
            if local.schema.entity(named: id.entityName) != nil, !pending.deleted.contains(id) {
                inserting.insert(id)
            }
        }
        for change in changes where serverRows.models.syncs(change.changedPersistentIdentifier.entityName) {
            synced = true
            let id = toLocal(change.changedPersistentIdentifier)
            guard local.schema.entity(named: id.entityName) != nil, !pending.deleted.contains(id) else {
                continue
            }
            switch change.kind {
            case .insert:
                let values = incoming(
                    change.values, for: id, in: overlay, inserting: inserting, keeping: pending)
                // Merged as the server merges an insert into the holder of its unique value, unless the server
                // holds the device's model: then the device pushed it, and this insert is older in server order.
                if !pending.uniqueHolders.isEmpty, overlay.row(id) == nil,
                    let mine = pending.holder(
                        of: change.values.mapValues {
                            IdentifierTranslation.translate($0, to: local.identifier)
                        },
                        in: local.schema.entity(named: id.entityName)),
                    mine != id,
                    try serverRows.row(IdentifierTranslation.translate(mine, to: server.identifier)) == nil
                {
                    try merge(mine, into: id, values: values, in: &overlay, pending: &pending)
                    continue
                }
                overlay.write(id, values)
            case .update:
                // Absent: the device deleted it (its delete wins) or never held it.
                guard overlay.row(id) != nil else { continue }
                var values: [String: SnapshotValue] = [:]
                for name in change.updatedAttributes { values[name] = change.values[name] ?? .null }
                overlay.write(
                    id, incoming(values, for: id, in: overlay, inserting: inserting, keeping: pending))
            case .delete:
                guard overlay.row(id) != nil else { continue }
                try relink(id, to: nil, in: &overlay)
                overlay.delete(id)
            }
        }
        return synced
    }

    /// Takes off the lists the page wrote the members whose own side (a to-one) names another owner, so that
    /// the save never files a model on two lists. A list the device has not pushed is kept over the server's
    /// (a merged owner's, say), while a member's side the server moved is not: the side decides, as it does in
    /// a push.
    private func dropMembersFiledElsewhere(in overlay: inout RowOverlay) {
        for id in overlay.changedIdentifiers {
            guard let row = overlay.row(id), let entity = local.schema.entity(named: id.entityName) else {
                continue
            }
            for relationship in entity.relationships {
                guard
                    let inverse = Self.toOneInverse(
                        of: relationship, in: id.entityName, schema: local.schema),
                    let list = row[attribute: relationship.name].relatedIdentifiers, !list.isEmpty
                else { continue }
                // A member the page did not load keeps its place: its side is the store's, which the save's
                // upkeep follows.
                let kept = list.filter { member in
                    guard let side = overlay.row(member) else { return true }
                    return side[attribute: inverse].relatedIdentifiers?.first == id
                }
                if kept.count != list.count {
                    overlay.write(id, [relationship.name: .array(kept.map(SnapshotValue.identifier))])
                }
            }
        }
    }

    /// A server change's values as the device stores them, without the attributes it has pending and without
    /// links to models it does not hold (those the same transaction `inserting` are kept).
    func incoming(
        _ values: [String: SnapshotValue], for id: PersistentIdentifier, in overlay: RowOverlay,
        inserting: Set<PersistentIdentifier>, keeping pending: PendingChanges
    ) -> [String: SnapshotValue] {
        guard let entity = local.schema.entity(named: id.entityName) else { return [:] }
        let mine = pending.attributes[id] ?? []
        var result: [String: SnapshotValue] = [:]
        for (name, value) in values where !mine.contains(name) {
            guard entity.attributes.contains(where: { $0.name == name }) else { continue }
            let translated = IdentifierTranslation.translate(value, to: local.identifier)
            guard entity.relationship(named: name) != nil else {
                result[name] = translated
                continue
            }
            let filter = ReferenceFilter(
                exists: { overlay.row($0) != nil || inserting.contains($0) }, translate: { $0 })
            result[name] = filter.keepExisting(translated)
        }
        return result
    }

    func toLocal(_ id: PersistentIdentifier) -> PersistentIdentifier {
        IdentifierTranslation.translate(id, to: local.identifier)
    }
}

extension SyncEngine {
    /// Merges the device's model `mine`, which has unpushed changes, into the server's model `theirs` that
    /// claims one of its unique values, as the server will when the device pushes `mine`: `theirs` takes the
    /// values `mine` has not pushed (an upsert takes the later insert's values), its lists gain the members of
    /// `mine`'s, the device's links to `mine` move to `theirs`, and `mine` goes. `values` are what the server's
    /// insert of `theirs` writes; `pending` then counts `mine`'s unpushed attributes as `theirs`'s.
    func merge(
        _ mine: PersistentIdentifier, into theirs: PersistentIdentifier, values: [String: SnapshotValue],
        in overlay: inout RowOverlay, pending: inout PendingChanges
    ) throws {
        try load([mine, theirs], into: &overlay)
        guard let row = overlay.row(mine), let entity = local.schema.entity(named: mine.entityName) else {
            overlay.write(theirs, values)
            return
        }
        let unpushed = pending.attributes[mine] ?? []
        var merged = values
        for name in unpushed {
            let value = row[attribute: name]
            guard entity.relationship(named: name)?.isToMany == true else {
                merged[name] = value
                continue
            }
            var list = merged[name]?.relatedIdentifiers ?? []
            var held = Set(list)
            for member in value.relatedIdentifiers ?? [] where held.insert(member).inserted {
                list.append(member)
            }
            merged[name] = .array(list.map(SnapshotValue.identifier))
        }
        try relink(mine, to: theirs, in: &overlay)
        overlay.delete(mine)
        overlay.write(theirs, merged)
        pending.attributes[theirs, default: []].formUnion(unpushed)
    }
}
