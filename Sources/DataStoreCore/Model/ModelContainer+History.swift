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
    /// - Throws: ``DataStoreError/unknownStore(store:)`` for a token naming a store the container lacks, and
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
        let start = bounds.lowerToken?.value ?? CompositeHistoryToken()
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
            statistics.examinedTransactions += 1
            if let author = bounds.author, transaction.author != author { continue }
            if let predicate = descriptor.predicate {
                statistics.predicateEvaluations += 1
                do {
                    guard try predicate.evaluate(transaction) else { continue }
                } catch {
                    throw DataStoreError.predicateEvaluationFailed(
                        store: transaction.storeIdentifier, reason: String(describing: error))
                }
            }
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
