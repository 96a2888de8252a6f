import Foundation

extension ModelContainer {
    /// Fetches the merged history of every store in the container.
    ///
    /// Each store seeks to its component of the predicate's lower token bound; the results are merged by
    /// timestamp, then store identifier, then transaction identifier, and each transaction's token is the
    /// furthest position per store reached so far. The full predicate is then evaluated on each.
    ///
    /// - Throws: ``DataStoreError/unknownStore(store:)`` for a token naming a store the container lacks, and
    ///   each store's token errors (expired, other epoch) naming that store.
    public func fetchHistory(
        _ descriptor: HistoryDescriptor<ContainerHistoryTransaction>, statistics: inout HistoryQueryStatistics
    ) throws -> [ContainerHistoryTransaction] {
        let bounds = HistoryPredicateBounds(descriptor.predicate)
        for token in bounds.tokens {
            for store in token.components.keys where !storeIdentifiers.contains(store) {
                throw DataStoreError.unknownStore(store: store)
            }
        }
        let start = bounds.lowerToken?.value ?? CompositeHistoryToken()
        var entries: [StoreHistoryEntry] = []
        for store in stores {
            entries += try store.history(after: start.components[store.identifier], modelTypes: modelTypes)
        }
        entries.sort { lhs, rhs in
            let left = lhs.transaction
            let right = rhs.transaction
            return (left.timestamp, left.storeIdentifier, left.transactionIdentifier)
                < (right.timestamp, right.storeIdentifier, right.transactionIdentifier)
        }
        var position = start
        var matches: [ContainerHistoryTransaction] = []
        let stopEarly = descriptor.sortBy.isEmpty ? descriptor.fetchLimit : nil
        for entry in entries {
            if let stopEarly, matches.count >= stopEarly { break }
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
        for store in stores {
            var doomed: [Int64] = []
            for entry in try store.history(after: nil, modelTypes: modelTypes) {
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
