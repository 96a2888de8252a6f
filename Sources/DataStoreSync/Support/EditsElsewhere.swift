import DataStoreCore

/// What other devices (and the server's own app) changed on the server since this device last pulled: the
/// attributes they wrote and the models they deleted, by server identifier. An upload of a device whose
/// history was lost reads it to tell the device's edits from its stale values: where the device differs from
/// the server on an attribute written here, the device holds the value from before that edit, not an edit of
/// its own it could prove; so the other device's edit stands, and a model deleted here is not brought back.
struct EditsElsewhere {
    /// Attributes written, by model.
    private var attributes: [PersistentIdentifier: Set<String>] = [:]
    /// Models deleted.
    private(set) var deleted: Set<PersistentIdentifier> = []

    /// The author of the device's own pushes, whose transactions are not edits made elsewhere.
    let ownAuthor: String

    /// Nothing read yet; transactions authored `ownAuthor` will be left out.
    init(ownAuthor: String) {
        self.ownAuthor = ownAuthor
    }

    /// Reads `transactions`, the next page of the server's history after the device's pull cursor.
    mutating func read<Transaction: HistoryTransaction>(_ transactions: [Transaction])
    where Transaction.Change: ValueRecordingHistoryChange {
        for transaction in transactions where transaction.author != ownAuthor {
            for change in transaction.changes {
                let id = change.changedPersistentIdentifier
                switch change.kind {
                case .delete:
                    deleted.insert(id)
                    attributes[id] = nil
                case .insert:
                    attributes[id, default: []].formUnion(change.values.keys)
                case .update:
                    attributes[id, default: []].formUnion(change.updatedAttributes)
                }
            }
        }
    }

    /// Whether attribute `name` of model `id` was written elsewhere.
    func wrote(_ name: String, of id: PersistentIdentifier) -> Bool {
        attributes[id]?.contains(name) == true
    }
}
