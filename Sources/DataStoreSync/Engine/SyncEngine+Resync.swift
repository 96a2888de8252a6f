import DataStoreCore

extension SyncEngine {
    /// Makes the device hold what the server holds, from a full copy: before the first pull, and when the pull
    /// token expired (the server's history was trimmed past it, or the server was erased). The device's
    /// unpushed changes are kept, as in any pull; the token becomes the server's newest.
    ///
    /// The token is read before the rows, so a transaction committed while the rows are read is applied again
    /// by the next pull, which changes nothing. `expired` says whether to count a resynchronisation in the
    /// status (the first pull is not one).
    func rebuildFromServer(cursorExists: Bool, expired: Bool) throws {
        let newest = try Self.newestToken(of: server)
        let pending = try pendingChanges()
        var overlay = RowOverlay()
        for entity in serverRows.models.syncedEntities where local.schema.entity(named: entity) != nil {
            let held = Dictionary(
                try localRows.all(entity).map { ($0.persistentIdentifier, $0) }, uniquingKeysWith: { $1 })
            let copies = try serverRows.all(entity).map {
                DataStoreSnapshot(
                    persistentIdentifier: toLocal($0.persistentIdentifier), values: localValues(of: $0))
            }
            let wanted = Set(copies.map(\.persistentIdentifier))
            overlay.load(held, for: Array(held.keys) + copies.map(\.persistentIdentifier))
            for copy in copies where !pending.deleted.contains(copy.persistentIdentifier) {
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
        if !request.isEmpty { _ = try local.save(request) }
        let text = newest.flatMap { try? HistoryTokenCoding.jsonString($0) }
        updateStatus {
            if expired { $0.resynchronisationCount += 1 }
            $0.pulledToken = text
        }
    }

    /// Uploads every synced model of the device when its history cannot be pushed transaction by
    /// transaction: trimmed past the server's cursor, the device store erased or recreated, or the server
    /// erased. Models the server lacks are inserted. For models it holds, the attributes in `winning` (the
    /// device's unpushed changes, when known) are written, or every differing attribute when `winning` is
    /// `nil` (nothing is known, and the device's values win: no unpushed work is lost). Models the server holds
    /// and the device does not are kept: the device cannot tell its deletes from models it never pulled, and
    /// the next pull brings them back; its known unpushed deletes are sent. Returns 0 (no conflict is decided).
    func uploadWhole(cursorExists: Bool, winning: PendingChanges?) throws -> Int {
        let newest = try Self.newestToken(of: local)
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
        let uploaded = Set(ids)
        let references = ReferenceFilter(
            exists: { held[$0] != nil || uploaded.contains($0) },
            translate: { IdentifierTranslation.translate($0, to: self.server.identifier) })
        for (row, id) in zip(rows, ids) {
            guard let entity = server.schema.entity(named: id.entityName) else { continue }
            let values = references.filter(row.values, of: entity)
            if let current = held[id] {
                let mine = winning.map { $0.attributes[row.persistentIdentifier] ?? [] }
                let changed = values.filter {
                    current.values[$0.key] != $0.value && mine?.contains($0.key) ?? true
                }
                if !changed.isEmpty {
                    request.updated.append(DataStoreSnapshot(persistentIdentifier: id, values: changed))
                }
            } else {
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
        try correctDevice(DeviceCorrections(remapped: result.remappedIdentifiers))
        let text = newest.flatMap { try? HistoryTokenCoding.jsonString($0) }
        updateStatus {
            $0.pendingTransactionCount = 0
            $0.pushedToken = text
        }
        return 0
    }
}
