@_spi(DataStoreInternals) import DataStoreCore

extension SyncEngine {
    /// The device's many-to-many sides as they stood before `transaction` (``DeviceListSides``), taken out of
    /// the engine's progress for the push of that transaction (``putBack(_:reading:)`` returns them); `nil`
    /// when the synced models have no many-to-many relationship.
    ///
    /// `previous` is the device transaction just before `transaction`, the last one the push handled: when the
    /// index has read through it, nothing is read. Otherwise (the engine's first push, or history the index has
    /// not read: pulls since the last push) it reads the device's history from where it stopped; from the
    /// start when the history was trimmed past that point, or when the index is ahead of `transaction`.
    func listSides(before transaction: Local.HistoryType, previous: Local.Token?) throws
        -> DeviceListSides<Local.Token>?
    {
        guard !manyToManySides.isEmpty else { return nil }
        // Taken out, not copied: the push changes it, and one push runs at a time.
        var sides = progress.withLock { progress in
            defer { progress.listSides = DeviceListSides() }
            return progress.listSides
        }
        if let read = sides.readThrough, read >= transaction.token { sides.reset() }
        guard sides.readThrough == nil || sides.readThrough != previous else { return sides }
        func read(after start: Local.Token?) throws {
            try forEachHistoryPage(of: local, after: start, through: transaction.token) { page in
                progress.withLock { $0.transactionsReadForListSides += page.count }
                for earlier in page where earlier.token != transaction.token {
                    sides.read(earlier, tracked: manyToManySides)
                }
                return true
            }
        }
        do {
            try read(after: sides.readThrough)
        } catch let error as DataStoreError where error.code == .historyTokenExpired {
            sides.reset()
            try read(after: nil)
        }
        return sides
    }

    /// Returns `sides` to the engine's progress, having read `transaction` into them when it was handled (its
    /// push saved, or it was read through); a push that failed leaves them before it.
    func putBack(_ sides: DeviceListSides<Local.Token>?, reading transaction: Local.HistoryType?) {
        guard var sides else { return }
        if let transaction { sides.read(transaction, tracked: manyToManySides) }
        progress.withLock { $0.listSides = sides }
    }
}
