import DataStoreCore

extension SyncEngine {
    /// The device's history no longer reaches the transaction through which a pull read what the device has not
    /// pushed (trimmed while the pull ran): the pull starts again, and uploads the device whole first. A pull
    /// throws it only when that happened at each of its tries.
    struct DeviceHistoryTrimmedDuringPull: Error, CustomStringConvertible {
        var description: String {
            "the device's history was trimmed while the pull read it, at each of its tries: "
                + "pull again once the device's history retention leaves it time"
        }
    }

    /// The device's changes after `token` (from its first transaction when `nil`), or `nil` when its history
    /// no longer reaches back that far.
    func pendingChanges(after token: Local.Token?) throws -> PendingChanges? {
        var through = token
        return try pendingChanges(after: token, through: &through)
    }

    /// ``pendingChanges(after:)``, with `through` set to the newest device transaction read (`token` when
    /// there was none), for ``catchUp(_:through:)``.
    func pendingChanges(after token: Local.Token?, through: inout Local.Token?) throws -> PendingChanges? {
        var pending = PendingChanges()
        through = token
        return try read(after: token, into: &pending, through: &through) ? pending : nil
    }

    /// Adds to `pending` the device's changes after `through` (app saves made since it was read) and moves
    /// `through` to the newest.
    ///
    /// A pull calls it once it has read the device's rows that a save of its will write. An app save made
    /// before then is in `pending`, so the pull neither brings back a model the app just deleted (its row is
    /// gone, so the pull's save would insert it again) nor overwrites what it just wrote; one made after then
    /// makes the pull's save refuse (a baseline that changed, a model gone), and the pull reads again.
    ///
    /// - Throws: ``DeviceHistoryTrimmedDuringPull`` when the history no longer reaches `through`.
    func catchUp(_ pending: inout PendingChanges, through: inout Local.Token?) throws {
        guard try read(after: through, into: &pending, through: &through) else {
            throw DeviceHistoryTrimmedDuringPull()
        }
    }

    /// Adds the device's changes after `token` to `pending`, leaving out the engine's own pulls, and notes the
    /// unique values the models they change hold; `through` becomes the newest transaction read. Returns
    /// whether the history reaches back to `token`.
    private func read(
        after token: Local.Token?, into pending: inout PendingChanges, through: inout Local.Token?
    ) throws -> Bool {
        var changed: Set<PersistentIdentifier> = []
        let whole = try forEachDeviceHistoryPage(after: token) { transactions in
            through = transactions.last?.token ?? through
            for transaction in transactions where transaction.author != Self.pullAuthor {
                for change in transaction.changes {
                    pending.add(change)
                    changed.insert(change.changedPersistentIdentifier)
                }
            }
        }
        guard whole else { return false }
        try noteUniqueValues(of: changed, in: &pending)
        return true
    }

    /// Records the unique values that `identifiers`, models with unpushed changes, hold on the device now, in
    /// place of those they held before.
    private func noteUniqueValues(of identifiers: Set<PersistentIdentifier>, in pending: inout PendingChanges)
        throws
    {
        let ids = identifiers.filter {
            local.schema.entity(named: $0.entityName)?.uniqueConstraints.isEmpty == false
        }
        guard !ids.isEmpty else { return }
        if !pending.uniqueHolders.isEmpty {
            pending.uniqueHolders = pending.uniqueHolders.filter { !ids.contains($0.value) }
        }
        for row in try localRows.rows(ids).values {
            guard let entity = local.schema.entity(named: row.persistentIdentifier.entityName) else {
                continue
            }
            for key in UniqueKeys.of(row.values, in: entity) {
                pending.uniqueHolders[key] = row.persistentIdentifier
            }
        }
    }
}
