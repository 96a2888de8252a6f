import DataStoreCore

extension SyncEngine {
    /// Writes the models of `ahead`, and those the page left holding its values, as the server holds them now
    /// (``UniqueValuesAhead``), keeping what the device has not pushed; a model the server no longer holds
    /// goes, with the links to it, unless the device has unpushed changes of it.
    func writeAsTheServerHoldsThem(
        _ ahead: UniqueValuesAhead, in overlay: inout RowOverlay, keeping pending: PendingChanges
    ) throws {
        guard !ahead.holders.isEmpty else { return }
        var models = Array(ahead.holders)
        for id in overlay.changedIdentifiers where !ahead.holders.contains(id) {
            guard let row = overlay.row(id), let entity = local.schema.entity(named: id.entityName),
                ahead.isHeld(by: row, in: entity)
            else { continue }
            models.append(id)
        }
        models.removeAll { pending.deleted.contains($0) }
        // The server's rows by device identifier.
        let held = Dictionary(
            uniqueKeysWithValues: try serverRows.rows(
                models.map { IdentifierTranslation.translate($0, to: server.identifier) }
            ).values.map { (toLocal($0.persistentIdentifier), $0) })
        // The models the rows link to are loaded too: a link to a model the overlay does not hold is dropped.
        let linked = held.values.flatMap { row in row.values.values.flatMap { $0.relatedIdentifiers ?? [] } }
        try load(models + linked.map(toLocal), into: &overlay)
        for id in models {
            if let row = held[id] {
                overlay.write(
                    id, incoming(row.values, for: id, in: overlay, inserting: [], keeping: pending))
            } else if overlay.row(id) != nil, pending.attributes[id] == nil {
                // Deleted on the server later in its history. A model the server lacks that the device has
                // unpushed changes of is the device's own, not pushed yet: it stays.
                try relink(id, to: nil, in: &overlay)
                overlay.delete(id)
            }
        }
    }
}
