import DataStoreCore

/// The device's changes the server has not received: the attributes a pull must not overwrite and the models
/// it must not bring back.
struct PendingChanges {
    /// Attributes written by unpushed device transactions, by device identifier (every attribute of an
    /// unpushed insert).
    var attributes: [PersistentIdentifier: Set<String>] = [:]
    /// Models deleted by unpushed device transactions.
    var deleted: Set<PersistentIdentifier> = []
    /// The models with unpushed changes by the unique values they hold on the device (``UniqueKeys``).
    var uniqueHolders: [[SnapshotValue]: PersistentIdentifier] = [:]

    /// Adds what one unpushed device change writes or deletes.
    mutating func add<Change: ValueRecordingHistoryChange>(_ change: Change) {
        let id = change.changedPersistentIdentifier
        if change.kind == .delete {
            deleted.insert(id)
        } else {
            attributes[id, default: []].formUnion(PendingWrites.attributes(writtenBy: change))
        }
    }

    /// The model with unpushed changes holding a unique value that a server model with `values` (in device
    /// identifiers) claims, if any: the server merges the device's model into that one when the device pushes
    /// it (a later insert goes into the first), so the device merges it now.
    func holder(of values: [String: SnapshotValue], in entity: Schema.Entity?) -> PersistentIdentifier? {
        guard !uniqueHolders.isEmpty, let entity else { return nil }
        return UniqueKeys.of(values, in: entity).lazy.compactMap { uniqueHolders[$0] }.first
    }
}
