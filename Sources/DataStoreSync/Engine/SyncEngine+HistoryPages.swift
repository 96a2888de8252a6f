@_spi(DataStoreInternals) import DataStoreCore

extension SyncEngine {
    /// How many transactions one read of a store's history returns at most, in a push, in the pull's reading of
    /// what the device has not pushed, and in an upload's reading of what others changed: a device offline for
    /// a long time, or a server many devices wrote to, is read a page at a time instead of held whole.
    public static var historyPageSize: Int { 256 }

    /// Hands `body` the transactions of `store`'s history after `start` (from its first transaction when
    /// `nil`) through `end` (to its newest when `nil`), in order, at most ``historyPageSize`` (or the engine's
    /// test setting) at a time, each page once; nothing when there are none. Stops after a page for which
    /// `body` returns `false`.
    ///
    /// - Throws: `DataStoreError.historyTokenExpired` when the history no longer reaches back to `start`, or
    ///   (at a later page) was trimmed while it was read; what `body` throws.
    func forEachHistoryPage<Store: HistoryProvidingStore>(
        of store: Store, after start: Store.Token?, through end: Store.Token? = nil,
        _ body: ([Store.HistoryType]) throws -> Bool
    ) throws {
        let size = progress.withLock { $0.historyPageSize } ?? Self.historyPageSize
        var after = start
        while true {
            var descriptor = HistoryDescriptor<Store.HistoryType>(fetchLimit: size)
            switch (after, end) {
            case (let after?, let end?):
                descriptor.predicate = HistoryPredicates.between(after: after, through: end)
            case (let after?, nil): descriptor.predicate = HistoryPredicates.after(after)
            case (nil, let end?): descriptor.predicate = HistoryPredicates.through(end)
            case (nil, nil): break
            }
            let page = try store.fetchHistory(descriptor)
            progress.withLock { $0.largestHistoryPage = max($0.largestHistoryPage, page.count) }
            guard let last = page.last, try body(page), page.count == size else { return }
            after = last.token
        }
    }

    /// Hands `body` the device's transactions after `start` (from its first transaction when `nil`), a page at
    /// a time, and returns whether the device's history reaches back that far: `false` when it was trimmed past
    /// `start` (or the store was erased or recreated since), or, read from its start, when it no longer begins
    /// at the first transaction, or is empty while the device holds models. No page is handed out once that is
    /// known to be `false`.
    func forEachDeviceHistoryPage(
        after start: Local.Token?, _ body: ([Local.HistoryType]) throws -> Void
    ) throws -> Bool {
        // Read from the start, whether the history is whole is known from its first page. `nil` until known.
        var whole: Bool? = start == nil ? nil : true
        do {
            try forEachHistoryPage(of: local, after: start) { page in
                if whole == nil { whole = try deviceHistoryIsWhole(firstTransaction: page.first) }
                guard whole == true else { return false }
                try body(page)
                return true
            }
        } catch let error as DataStoreError where error.code == .historyTokenExpired {
            return false
        }
        if whole == nil { whole = try deviceHistoryIsWhole(firstTransaction: nil) }
        return whole == true
    }

    /// Whether a device history read from its start (the server has no cursor for the device) is whole: it
    /// begins at the device's first transaction, or it is empty and the device holds no row either (a store
    /// with models but no history has lost it).
    private func deviceHistoryIsWhole(firstTransaction first: Local.HistoryType?) throws -> Bool {
        guard let first else { return try !localRows.holdsAnyRow() }
        return first.token.sequence == 1
    }
}
