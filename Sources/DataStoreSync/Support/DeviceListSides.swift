import DataStoreCore

/// The value each device model's side of a many-to-many relationship last had on the device, as the device's
/// history wrote it (its app's saves and the engine's pulls alike), read through ``readThrough``.
///
/// A push of a list without previous values learns whom the device took off the list from the members' own
/// sides, written in the same transaction (``InverseSideWrites``). A member's side written without the owner
/// says the device took it off only if the side named the owner before: a device that never saw the pair
/// (another device made it, and this one has not pulled it) writes the side without it for another reason.
/// That earlier value is what this index keeps, for the relationships whose inverse is a list too (a to-one
/// inverse is one value, written whenever it changes).
struct DeviceListSides<Token: HistoryToken> {
    /// The sides, by device identifier and attribute name.
    private var values: [PersistentIdentifier: [String: SnapshotValue]] = [:]
    /// The last device transaction read; `nil` before the first read.
    private(set) var readThrough: Token?

    /// The value `attribute` of device model `id` had after the transactions read, `nil` when none of them
    /// wrote it (the model's insert was trimmed, or it is not a many-to-many side).
    func side(of id: PersistentIdentifier, _ attribute: String) -> SnapshotValue? {
        values[id]?[attribute]
    }

    /// Forgets everything read: the history no longer reaches back to where the index stopped.
    mutating func reset() {
        self = Self()
    }

    /// Reads one device transaction, in history order: the sides it wrote of the attributes `tracked` names
    /// for each entity.
    mutating func read<Transaction: HistoryTransaction>(
        _ transaction: Transaction, tracked: [String: Set<String>]
    ) where Transaction.Change: ValueRecordingHistoryChange, Transaction.Token == Token {
        for change in transaction.changes {
            let id = change.changedPersistentIdentifier
            guard let names = tracked[id.entityName] else { continue }
            switch change.kind {
            case .delete:
                values[id] = nil
            case .insert:
                // A new model's lists start empty; the insert names every member it has.
                var sides: [String: SnapshotValue] = [:]
                for name in names { sides[name] = change.values[name] ?? .array([]) }
                values[id] = sides
            case .update:
                for name in change.updatedAttributes where names.contains(name) {
                    guard let value = change.values[name] else { continue }
                    values[id, default: [:]][name] = value
                }
            }
        }
        readThrough = transaction.token
    }
}
