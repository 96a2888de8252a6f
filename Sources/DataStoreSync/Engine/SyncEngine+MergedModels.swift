import DataStoreCore

extension SyncEngine {
    /// The server models that device models, which the server does not hold, were merged into on insert: for
    /// each of `identifiers` (server identifiers of models a device transaction updates, which the server lacks),
    /// the server model holding the device model's values of one of its entity's unique constraints.
    ///
    /// A push that inserts a model whose unique value another device took merges it into that device's model,
    /// and the correction that follows merges the device's model too. A crash in between leaves the device
    /// holding its own model, which the engine's next run no longer remembers as merged: without this lookup its
    /// later edits would be dropped as edits of a model deleted elsewhere. A model the server lacks and no
    /// server model shares a unique value with was deleted elsewhere, and its edits are dropped as before. A model
    /// the device no longer holds either (a pull merged it into the server's model before the push) is read from
    /// the device's history, where its insert holds its unique values.
    ///
    /// Reads every server row of an entity with unique constraints that such an update names, once per call.
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

    /// The values the device's history inserted `identifiers` with, for models the device no longer holds: a
    /// pull that merged a device model not pushed yet into the server's model of the same unique value deleted
    /// it, and a crash may since have cost the engine its memory of the merge. Reads the device's history a page
    /// at a time from its start, until every model's insert is found (a trimmed insert is not); each model once
    /// in the engine's lifetime, since an insert's values never change.
    private func insertedValues(of identifiers: Set<PersistentIdentifier>) throws
        -> [PersistentIdentifier: DataStoreSnapshot]
    {
        let known = progress.withLock { $0.insertedValues }
        let wanted = identifiers.filter { known[$0] == nil }
        var found: [PersistentIdentifier: DataStoreSnapshot] = [:]
        if !wanted.isEmpty {
            try forEachHistoryPage(of: local, after: nil) { transactions in
                for transaction in transactions {
                    for change in transaction.changes
                    where change.kind == .insert && wanted.contains(change.changedPersistentIdentifier) {
                        let id = change.changedPersistentIdentifier
                        found[id] = DataStoreSnapshot(persistentIdentifier: id, values: change.values)
                    }
                }
                return found.count < wanted.count
            }
            progress.withLock { progress in
                for id in wanted { progress.insertedValues[id] = .some(found[id]) }
            }
        }
        for id in identifiers where !wanted.contains(id) {
            if let values = known[id] ?? nil { found[id] = values }
        }
        return found
    }
}
