public import DataStoreCore
import DataStoreKit
import Foundation

extension ModelContainer {
    /// Fetches the merged history of every store in the container.
    public func fetchHistory(_ descriptor: HistoryDescriptor<ContainerHistoryTransaction>) throws
        -> [ContainerHistoryTransaction]
    {
        var statistics = HistoryQueryStatistics()
        return try fetchHistory(descriptor, statistics: &statistics)
    }

    /// Fetches the merged history of every store in the container, counting the work in `statistics`.
    ///
    /// Each store seeks to its component of the predicate's lower token bound and is read in batches; the
    /// batches are merged by timestamp, then store identifier, then transaction identifier, and each
    /// transaction's token is the furthest position per store reached so far. The full predicate is then
    /// evaluated on each, and without `sortBy` the fetch stops at `fetchLimit`: a limited fetch reads about
    /// `fetchLimit` transactions from each store, however long history is.
    ///
    /// - Throws: `DataStoreError/unknownStore(store:)` for a token naming a store the container lacks, and
    ///   each store's token errors (expired, other epoch) naming that store.
    package func fetchHistory(
        _ descriptor: HistoryDescriptor<ContainerHistoryTransaction>, statistics: inout HistoryQueryStatistics
    ) throws -> [ContainerHistoryTransaction] {
        let bounds = HistoryPredicateBounds(descriptor.predicate)
        for token in bounds.tokens {
            for store in token.components.keys where !storeIdentifiers.contains(store) {
                throw DataStoreError.unknownStore(store: store)
            }
        }
        if stores.count == 1, let store = stores.first, let limit = descriptor.fetchLimit,
            NewestFirstScan.isNewestFirst(
                descriptor.sortBy, transactionIdentifierIsSequence: store.transactionIdentifierIsSequence)
        {
            return try newestFirst(
                descriptor, bounds: bounds, limit: limit, store: store, statistics: &statistics)
        }
        let start = bounds.lowerToken?.value ?? CompositeHistoryToken()
        if descriptor.fetchLimit == 0 {
            // Nothing to return, but a stale token throws as in any fetch: each store checks its component
            // before reading anything (a `fetchLimit: 0` fetch is how a caller validates a token).
            for store in stores {
                _ = try store.history(
                    after: start.components[store.identifier], through: nil, limit: 0, modelTypes: modelTypes)
            }
            return []
        }
        // Without a sort, the merged stream is consumed in order and the fetch stops at its limit, so each
        // store is asked for batches of about the limit; with a sort everything must be read first.
        let stopEarly = descriptor.sortBy.isEmpty ? descriptor.fetchLimit : nil
        let batchSize = max(1, min(stopEarly ?? Self.historyBatchSize, Self.historyBatchSize))
        var cursors = stores.map { StoreHistoryCursor(store: $0, after: start.components[$0.identifier]) }

        var position = start
        var matches: [ContainerHistoryTransaction] = []
        while stopEarly.map({ matches.count < $0 }) ?? true {
            // The next transaction in merged order: the earliest head among the stores' batches.
            var next: Int?
            for index in cursors.indices {
                guard let head = try cursors[index].head(batchSize: batchSize, modelTypes: modelTypes) else {
                    continue
                }
                if let best = next, let bestHead = cursors[best].buffered.last,
                    !Self.mergedOrder(head.transaction, bestHead.transaction)
                {
                    continue
                }
                next = index
            }
            guard let next else { break }
            let entry = cursors[next].pop()
            var transaction = entry.transaction
            position.components[transaction.storeIdentifier] = .init(
                epoch: entry.epoch, sequence: transaction.storeSequence)
            transaction.token = position
            guard try Self.accepts(transaction, descriptor, bounds, statistics: &statistics) else { continue }
            matches.append(transaction)
        }
        if !descriptor.sortBy.isEmpty {
            matches.sort(using: descriptor.sortBy)
        }
        if let limit = descriptor.fetchLimit, matches.count > limit {
            matches.removeSubrange(max(0, limit)...)
        }
        return matches
    }

    /// The latest-token pattern on a one-store container (a limited fetch sorted newest first): the store is
    /// read from its newest end in windows, so `fetchLimit: 1` reads about one transaction.
    private func newestFirst(
        _ descriptor: HistoryDescriptor<ContainerHistoryTransaction>,
        bounds: HistoryPredicateBounds<ContainerHistoryTransaction>, limit: Int, store: any StoreConnection,
        statistics: inout HistoryQueryStatistics
    ) throws -> [ContainerHistoryTransaction] {
        let lower = bounds.lowerToken?.value.components[store.identifier]
        let upper = bounds.upperToken?.value.components[store.identifier]
        // Validates the predicate's tokens (they throw here as in any fetch) before reading anything.
        _ = try store.history(after: lower, through: upper, limit: 0, modelTypes: modelTypes)
        guard limit > 0, let newest = try store.newestPosition() else { return [] }
        let exclusiveLower: Int64 = bounds.lowerToken.map { $0.isInclusive ? -1 : 0 } ?? 0
        let inclusiveUpper: Int64 = bounds.upperToken.map { $0.isInclusive ? 0 : -1 } ?? 0
        var floor = max(0, (lower?.sequence ?? 0) + exclusiveLower)
        let ceiling = min(newest.sequence, (upper?.sequence ?? .max) + inclusiveUpper)
        var matches: [ContainerHistoryTransaction] = []
        var scan = NewestFirstScan(floor: floor, ceiling: ceiling, firstWindow: limit)
        var reading = ceiling  // the upper end of the window being read
        while true {
            do {
                try scan.run(
                    sequence: { $0.transaction.storeSequence },
                    read: { after, through in
                        reading = through
                        return try store.history(
                            after: .init(epoch: newest.epoch, sequence: after),
                            through: .init(epoch: newest.epoch, sequence: through), limit: nil,
                            modelTypes: modelTypes)
                    },
                    visit: { entry in
                        var transaction = entry.transaction
                        transaction.token = CompositeHistoryToken(
                            components: [
                                store.identifier: .init(
                                    epoch: entry.epoch, sequence: transaction.storeSequence)
                            ])
                        guard try Self.accepts(transaction, descriptor, bounds, statistics: &statistics)
                        else {
                            return false
                        }
                        matches.append(transaction)
                        return matches.count >= limit
                    })
                return matches
            } catch let error as DataStoreError
                where error.code == .historyTokenExpired && error.tokenExpiry == .historyDeleted
            {
                // A window reached into deleted history: nothing older is left, so stop at the oldest valid
                // position (a second expiry there means the store trimmed again meanwhile; give up with it).
                guard let oldest = error.oldestValidSequence, oldest > floor else { throw error }
                floor = oldest
                scan = NewestFirstScan(floor: floor, ceiling: reading, firstWindow: limit)
            }
        }
    }

    /// Whether a transaction matches the descriptor's author bound and predicate, counting the work.
    private static func accepts(
        _ transaction: ContainerHistoryTransaction,
        _ descriptor: HistoryDescriptor<ContainerHistoryTransaction>,
        _ bounds: HistoryPredicateBounds<ContainerHistoryTransaction>,
        statistics: inout HistoryQueryStatistics
    ) throws -> Bool {
        statistics.examinedTransactions += 1
        if let author = bounds.author, transaction.author != author { return false }
        guard let predicate = descriptor.predicate else { return true }
        statistics.predicateEvaluations += 1
        do {
            return try predicate.evaluate(transaction)
        } catch {
            throw DataStoreError.predicateEvaluationFailed(
                store: transaction.storeIdentifier, reason: String(describing: error))
        }
    }

    /// How many transactions a container asks one store for at a time when nothing smaller bounds it.
    static let historyBatchSize = 512

    /// The merged stream's order: by timestamp, then store identifier, then transaction identifier.
    static func mergedOrder(_ left: ContainerHistoryTransaction, _ right: ContainerHistoryTransaction) -> Bool
    {
        (left.timestamp, left.storeIdentifier, left.transactionIdentifier)
            < (right.timestamp, right.storeIdentifier, right.transactionIdentifier)
    }

    /// Deletes the transactions the descriptor selects from each store.
    ///
    /// Here each transaction's `token` is its own store's position alone, so
    /// `#Predicate { $0.token <= token }` trims every store up to its component of `token`, and a store
    /// missing from `token` loses nothing.
    public func deleteHistory(_ descriptor: HistoryDescriptor<ContainerHistoryTransaction>) throws {
        let bounds = HistoryPredicateBounds(descriptor.predicate)
        for token in bounds.tokens {
            for store in token.components.keys where !storeIdentifiers.contains(store) {
                throw DataStoreError.unknownStore(store: store)
            }
        }
        // A token upper bound limits what each store must read: a transaction whose own position is past the
        // bound's component for its store cannot match.
        let upper = bounds.upperToken?.value
        for store in stores {
            var doomed: [Int64] = []
            let entries: [StoreHistoryEntry]
            do {
                entries = try store.history(
                    after: nil, through: upper?.components[store.identifier], limit: nil,
                    modelTypes: modelTypes)
            } catch let error as DataStoreError where error.isFromErasedOrRecreatedStore {
                continue  // nothing in this store is at or before a position of another epoch
            }
            for entry in entries {
                var transaction = entry.transaction
                transaction.token = CompositeHistoryToken(
                    components: [
                        store.identifier: .init(epoch: entry.epoch, sequence: transaction.storeSequence)
                    ])
                if let predicate = descriptor.predicate {
                    do {
                        guard try predicate.evaluate(transaction) else { continue }
                    } catch {
                        throw DataStoreError.predicateEvaluationFailed(
                            store: store.identifier, reason: String(describing: error))
                    }
                }
                doomed.append(transaction.transactionIdentifier)
            }
            try store.deleteHistory(transactionIdentifiers: doomed)
        }
    }
}

/// One store's part of a merged history read: a buffered batch, refilled after the last transaction taken.
struct StoreHistoryCursor {
    let store: any StoreConnection
    var after: CompositeHistoryToken.Component?
    var buffered: [StoreHistoryEntry] = []
    var exhausted = false

    init(store: any StoreConnection, after: CompositeHistoryToken.Component?) {
        self.store = store
        self.after = after
    }

    /// The next transaction, reading a new batch of `batchSize` when the buffer is empty; `nil` at the end.
    mutating func head(batchSize: Int, modelTypes: ModelTypeRegistry) throws -> StoreHistoryEntry? {
        if buffered.isEmpty && !exhausted {
            buffered = try store.history(after: after, through: nil, limit: batchSize, modelTypes: modelTypes)
            buffered.reverse()  // popped from the end
            exhausted = buffered.count < batchSize
        }
        return buffered.last
    }

    mutating func pop() -> StoreHistoryEntry {
        let entry = buffered.removeLast()
        after = .init(epoch: entry.epoch, sequence: entry.transaction.storeSequence)
        return entry
    }
}
