#if PostgreSQL
    @_spi(DataStoreInternals) import DataStoreCore
    import DataStoreKit
    import Foundation
    import Synchronization

    /// The instance's cache of decoded history. History rows are never rewritten, and a position is taken only
    /// after every smaller one is visible, so a transaction cached once stays right for its epoch: a read of
    /// the tail asks the server for the positions only and decodes nothing it has cached.
    extension PostgresDataStore {
        /// The cached transactions, when they belong to `epoch` (`erase` draws a new one and restarts the
        /// positions); otherwise an empty cache.
        func recentHistory(of epoch: UUID) -> RecentHistory<PostgresHistoryTransaction> {
            let recent = recentHistory.withLock { $0 }
            guard recent.transactions.first?.token.epoch == epoch else {
                return RecentHistory(changeLimit: recent.changeLimit)
            }
            return recent
        }

        /// Caches `transactions`: every transaction of `epoch` after position `after` up to the last of them.
        func rememberHistory(_ transactions: [PostgresHistoryTransaction], after: Int64, epoch: UUID) {
            guard !transactions.isEmpty else { return }
            recentHistory.withLock { recent in
                if let cached = recent.transactions.first, cached.token.epoch != epoch {
                    recent.removeAll()
                }
                recent.remember(transactions, after: after)
            }
        }
    }
#endif
