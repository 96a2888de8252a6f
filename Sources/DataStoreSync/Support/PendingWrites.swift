import DataStoreCore

/// How many of a push's device transactions not yet sent write each attribute of each model, so that a
/// correction after one transaction leaves alone what a later one writes again.
struct PendingWrites {
    private var counts: [PersistentIdentifier: [String: Int]] = [:]

    /// Adds the writes of `transactions`, still to send (a push reads them a page at a time).
    mutating func add<Transaction: HistoryTransaction>(_ transactions: [Transaction])
    where Transaction.Change: ValueRecordingHistoryChange {
        for transaction in transactions { add(transaction.changes, by: 1) }
    }

    /// Takes one transaction's writes off, once it is sent.
    mutating func remove<Change: ValueRecordingHistoryChange>(_ changes: [Change]) {
        add(changes, by: -1)
    }

    /// Whether the transactions added and not taken off write `attribute` of `model`.
    func writes(_ attribute: String, of model: PersistentIdentifier) -> Bool {
        (counts[model]?[attribute] ?? 0) > 0
    }

    /// `values` without the attributes a transaction still to send writes.
    func withoutWrittenAttributes(
        _ values: [PersistentIdentifier: [String: SnapshotValue]]
    ) -> [PersistentIdentifier: [String: SnapshotValue]] {
        var kept = values
        for (id, attributes) in values {
            guard let written = counts[id] else { continue }
            let left = attributes.filter { (written[$0.key] ?? 0) <= 0 }
            kept[id] = left.isEmpty ? nil : left
        }
        return kept
    }

    /// The attributes `change` writes: every attribute of an insert, the updated ones of an update.
    static func attributes<Change: ValueRecordingHistoryChange>(writtenBy change: Change) -> [String] {
        switch change.kind {
        case .insert: Array(change.values.keys)
        case .update: change.updatedAttributes
        case .delete: []
        }
    }

    private mutating func add<Change: ValueRecordingHistoryChange>(_ changes: [Change], by step: Int) {
        for change in changes {
            let names = Self.attributes(writtenBy: change)
            guard !names.isEmpty else { continue }
            // One lookup of the model per change, not one per attribute: the model's counts are taken out
            // (so that changing them copies nothing), changed, and put back.
            let id = change.changedPersistentIdentifier
            var written = counts.removeValue(forKey: id) ?? [:]
            // Room is made only for a model seen for the first time: reserving `count + names.count` for one
            // already counted grew (reallocated) its table on every transaction that wrote it again.
            if written.isEmpty { written.reserveCapacity(names.count) }
            for name in names { written[name, default: 0] += step }
            // A model whose writes are all sent is forgotten, so that the table holds only what is pending
            // (counts of exactly zero say nothing `writes(_:of:)` would not say without them).
            if written.values.contains(where: { $0 != 0 }) { counts[id] = written }
        }
    }
}
