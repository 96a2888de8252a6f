@_spi(DataStoreInternals) import DataStoreCore

extension SyncEngine {
    /// The server models that device models, which the server does not hold, were merged into on insert: for
    /// each of `identifiers` (server identifiers of models a device transaction updates or deletes, which the
    /// server lacks), the server model holding the device model's values of one of its entity's unique
    /// constraints.
    ///
    /// A push that inserts a model whose unique value another device took merges it into that device's model,
    /// and the correction that follows merges the device's model too. A crash in between leaves the device
    /// holding its own model, which the engine's next run no longer remembers as merged: without this lookup its
    /// later edits and its delete would be dropped as those of a model deleted elsewhere. A model the server
    /// lacks and no server model shares a unique value with was deleted elsewhere, and its changes are dropped
    /// as before. A model the device no longer holds either (a pull merged it into the server's model before the
    /// push, or the app deleted it) is read from the device's history, where its insert holds its unique values.
    ///
    /// Reads every server row of an entity with unique constraints that such a change names, once per call.
    func mergedHolders(of identifiers: some Sequence<PersistentIdentifier>) throws
        -> [PersistentIdentifier: PersistentIdentifier]
    {
        var holders: [PersistentIdentifier: PersistentIdentifier] = [:]
        var byEntity: [String: [PersistentIdentifier]] = [:]
        for id in identifiers { byEntity[id.entityName, default: []].append(id) }
        for (name, ids) in byEntity {
            guard let entity = server.schema.entity(named: name), !entity.uniqueConstraints.isEmpty else {
                continue
            }
            var mine = try localRows.rows(ids.map(toLocal))
            let gone = Set(ids.map(toLocal)).subtracting(mine.keys)
            if !gone.isEmpty { mine.merge(try insertedValues(of: gone)) { held, _ in held } }
            guard !mine.isEmpty else { continue }
            var owners: [[SnapshotValue]: PersistentIdentifier] = [:]
            for row in try serverRows.all(name) {
                for key in UniqueKeys.of(row.values, in: entity) { owners[key] = row.persistentIdentifier }
            }
            for id in ids {
                guard let row = mine[toLocal(id)] else { continue }
                let values = row.values.mapValues {
                    IdentifierTranslation.translate($0, to: server.identifier)
                }
                if let holder = UniqueKeys.of(values, in: entity).lazy.compactMap({ owners[$0] }).first {
                    holders[id] = holder
                }
            }
        }
        return holders
    }

    /// The values the device's own inserts gave `identifiers`, for models the device no longer holds: a pull
    /// that merged a device model not pushed yet into the server's model of the same unique value deleted it,
    /// and a crash may since have cost the engine its memory of the merge. Only the device's own inserts: a
    /// model a pull inserted came from the server, so a server that lacks it deleted it. Reads the device's
    /// history once in the engine's lifetime, then only the transactions added since (an index of the unique
    /// values of its own inserts, ``Progress/ownInserts``): a device whose edits of models deleted elsewhere
    /// read its whole history again for each spent most of its pushes there, and fell minutes behind.
    private func insertedValues(of identifiers: Set<PersistentIdentifier>) throws
        -> [PersistentIdentifier: DataStoreSnapshot]
    {
        var (missing, readThrough) = progress.withLock { progress in
            (identifiers.contains { progress.ownInserts[$0] == nil }, progress.ownInsertsReadThrough)
        }
        if missing {
            var added: [PersistentIdentifier: DataStoreSnapshot] = [:]
            func read(after start: Local.Token?) throws {
                try forEachHistoryPage(of: local, after: start) { page in
                    progress.withLock { $0.transactionsReadForOwnInserts += page.count }
                    for transaction in page where transaction.author != Self.pullAuthor {
                        for change in transaction.changes where change.kind == .insert {
                            let id = change.changedPersistentIdentifier
                            guard let entity = server.schema.entity(named: id.entityName),
                                !entity.uniqueConstraints.isEmpty
                            else { continue }
                            let names = Set(entity.uniqueConstraints.joined())
                            added[id] = DataStoreSnapshot(
                                persistentIdentifier: id,
                                values: change.values.filter { names.contains($0.key) })
                        }
                    }
                    readThrough = page.last?.token ?? readThrough
                    return true
                }
            }
            do {
                try read(after: readThrough)
            } catch let error as DataStoreError where error.code == .historyTokenExpired {
                // Trimmed past where the last read stopped: what is left is read again from its start.
                readThrough = nil
                try read(after: nil)
            }
            progress.withLock { progress in
                progress.ownInserts.merge(added) { $1 }
                progress.ownInsertsReadThrough = readThrough
            }
        }
        return progress.withLock { progress in
            identifiers.reduce(into: [:]) { found, id in
                if let values = progress.ownInserts[id] { found[id] = values }
            }
        }
    }
}
