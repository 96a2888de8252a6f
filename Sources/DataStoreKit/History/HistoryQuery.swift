public import DataStoreCore
public import Foundation

/// Runs a `HistoryDescriptor` over a store's history held in commit order, seeking by the predicate's
/// bounds instead of scanning. Backends share it so that every store validates, seeks and evaluates alike.
///
/// The log must be ordered by token sequence, and timestamps must not decrease along it. Steps:
/// 1. Validate every token the predicate mentions, in O(1), before reading anything.
/// 2. Narrow the log to a range by binary search on the token, transaction identifier and timestamp
///    bounds.
/// 3. Evaluate the full predicate on each candidate only (after a cheap check of the author bound).
/// 4. Sort and limit; without `sortBy`, stop as soon as `fetchLimit` transactions were found. A limited fetch
///    sorted newest first (reverse on `token`, or on `transactionIdentifier` where it is the sequence) reads
///    from the newest end instead and stops at the limit too.
public struct HistoryQuery<Transaction: HistoryTransaction>: Sendable
where Transaction.Token: StoreHistoryToken {
    /// The store the history belongs to.
    public var storeIdentifier: String
    /// The store's current epoch.
    public var epoch: UUID
    /// The smallest sequence a valid token may have (see `StoreHistoryToken/validate(storeIdentifier:epoch:oldestValidSequence:latestSequence:)`).
    public var oldestValidSequence: Int64
    /// The sequence of the newest transaction (0 when there is none).
    public var latestSequence: Int64
    /// Whether `transactionIdentifier` equals the token's sequence, so that bounds on it can seek too.
    public var transactionIdentifierIsSequence: Bool

    /// Creates a query context for one store.
    public init(
        storeIdentifier: String, epoch: UUID, oldestValidSequence: Int64, latestSequence: Int64,
        transactionIdentifierIsSequence: Bool = Transaction.transactionIdentifierIsSequence
    ) {
        self.storeIdentifier = storeIdentifier
        self.epoch = epoch
        self.oldestValidSequence = oldestValidSequence
        self.latestSequence = latestSequence
        self.transactionIdentifierIsSequence = transactionIdentifierIsSequence
    }

    /// Validates the tokens in `bounds`; throws the token error that applies.
    public func validate(_ bounds: HistoryPredicateBounds<Transaction>) throws(DataStoreError) {
        for token in bounds.tokens {
            try token.validate(
                storeIdentifier: storeIdentifier, epoch: epoch, oldestValidSequence: oldestValidSequence,
                latestSequence: latestSequence)
        }
    }

    /// The smallest and largest sequence a match can have, from the token (and, where it equals the
    /// sequence, transaction identifier) bounds. Stores that keep history in segments pick segments with it.
    public func sequenceBounds(_ bounds: HistoryPredicateBounds<Transaction>) -> (lower: Int64, upper: Int64)
    {
        Self.sequenceBounds(bounds, transactionIdentifierIsSequence: transactionIdentifierIsSequence)
    }

    /// What ``run(_:source:statistics:)`` asks its source for first, as the arguments of
    /// ``HistorySource/transactions(after:through:bounds:limit:)``; `nil` when it reads from the newest end
    /// instead, or reads nothing. It depends on the descriptor alone, so a database backend can send this read
    /// in the same round trip as its read of the store's state (epoch and positions), before the query
    /// validates the tokens against that state.
    public static func firstRead(
        _ descriptor: HistoryDescriptor<Transaction>,
        transactionIdentifierIsSequence: Bool = Transaction.transactionIdentifierIsSequence
    ) -> (after: Int64, through: Int64, bounds: HistoryPredicateBounds<Transaction>, limit: Int)? {
        let bounds = HistoryPredicateBounds(descriptor.predicate)
        let (lowerSequence, upperSequence) = sequenceBounds(
            bounds, transactionIdentifierIsSequence: transactionIdentifierIsSequence)
        if descriptor.fetchLimit != nil,
            NewestFirstScan.isNewestFirst(
                descriptor.sortBy, transactionIdentifierIsSequence: transactionIdentifierIsSequence)
        {
            return nil
        }
        let stopEarly = descriptor.sortBy.isEmpty ? descriptor.fetchLimit : nil
        if let stopEarly, stopEarly <= 0 { return nil }
        let after = lowerSequence == .min ? Int64.min : lowerSequence - 1
        guard upperSequence > after else { return nil }
        return (after, upperSequence, bounds, Swift.min(Swift.max(stopEarly ?? batchSize, 1), batchSize))
    }

    private static func sequenceBounds(
        _ bounds: HistoryPredicateBounds<Transaction>, transactionIdentifierIsSequence: Bool
    ) -> (lower: Int64, upper: Int64) {
        var lowerSequence: Int64 = .min
        var upperSequence: Int64 = .max
        if let bound = bounds.lowerToken {
            lowerSequence = max(lowerSequence, bound.value.sequence + (bound.isInclusive ? 0 : 1))
        }
        if let bound = bounds.upperToken {
            upperSequence = min(upperSequence, bound.value.sequence - (bound.isInclusive ? 0 : 1))
        }
        if transactionIdentifierIsSequence {
            if let bound = bounds.lowerTransactionIdentifier {
                lowerSequence = max(lowerSequence, bound.value &+ (bound.isInclusive ? 0 : 1))
            }
            if let bound = bounds.upperTransactionIdentifier {
                upperSequence = min(upperSequence, bound.value &- (bound.isInclusive ? 0 : 1))
            }
        }
        return (lowerSequence, upperSequence)
    }

    /// The range of `log` indices that can hold matches, found by binary search.
    public func candidateRange<Log: RandomAccessCollection<Transaction>>(
        in log: Log, bounds: HistoryPredicateBounds<Transaction>
    ) -> Range<Log.Index> {
        let (lowerSequence, upperSequence) = sequenceBounds(bounds)
        return InMemoryHistoryLog(log).range(
            after: lowerSequence == .min ? .min : lowerSequence - 1, through: upperSequence, bounds: bounds)
    }

    /// Runs the descriptor over the log and returns the matches, counting the work in `statistics`.
    public func run<Log: RandomAccessCollection<Transaction>>(
        _ descriptor: HistoryDescriptor<Transaction>, over log: Log,
        statistics: inout HistoryQueryStatistics
    ) throws(DataStoreError) -> [Transaction] {
        do {
            return try run(descriptor, source: InMemoryHistoryLog(log), statistics: &statistics)
        } catch let error as DataStoreError {
            throw error
        } catch {
            throw .predicateEvaluationFailed(store: storeIdentifier, reason: String(describing: error))
        }
    }

    /// Runs the descriptor over a store's history source: validates every token before asking the source
    /// for anything, then reads candidates in commit order, batch by batch, evaluating the predicate, and
    /// stops at `fetchLimit` when there is no `sortBy`. `statistics.examinedTransactions` counts every
    /// transaction the source returned.
    ///
    /// - Throws: The token errors, `DataStoreError/predicateEvaluationFailed(store:reason:)`, and whatever
    ///   the source throws.
    public func run<Source: HistorySource<Transaction>>(
        _ descriptor: HistoryDescriptor<Transaction>, source: Source, statistics: inout HistoryQueryStatistics
    ) throws -> [Transaction] {
        let bounds = HistoryPredicateBounds(descriptor.predicate)
        try validate(bounds)
        let (lowerSequence, upperSequence) = sequenceBounds(bounds)
        if let limit = descriptor.fetchLimit,
            NewestFirstScan.isNewestFirst(
                descriptor.sortBy, transactionIdentifierIsSequence: transactionIdentifierIsSequence)
        {
            // The latest-token pattern: read from the newest end until `limit` matches are found.
            var matches: [Transaction] = []
            guard limit > 0 else { return [] }
            let scan = NewestFirstScan(
                floor: Swift.max(lowerSequence == .min ? 0 : lowerSequence - 1, 0),
                ceiling: Swift.min(upperSequence, latestSequence), firstWindow: limit)
            try scan.run(
                sequence: { $0.token.sequence },
                read: { after, through in
                    try source.transactions(
                        after: after, through: through, bounds: bounds, limit: Int(through - after))
                },
                visit: { transaction in
                    statistics.examinedTransactions += 1
                    if let author = bounds.author, transaction.author != author { return false }
                    if try accepts(descriptor.predicate, bounds, transaction, statistics: &statistics) {
                        matches.append(transaction)
                    }
                    return matches.count >= limit
                })
            return matches
        }
        let stopEarly = descriptor.sortBy.isEmpty ? descriptor.fetchLimit : nil
        if let stopEarly, stopEarly <= 0 { return [] }
        var matches: [Transaction] = []
        var cursor = lowerSequence == .min ? Int64.min : lowerSequence - 1
        while upperSequence > cursor {
            let wanted = stopEarly.map { $0 - matches.count } ?? Self.batchSize
            let batchSize = Swift.min(Swift.max(wanted, 1), Self.batchSize)
            let batch = try source.transactions(
                after: cursor, through: upperSequence, bounds: bounds, limit: batchSize)
            for transaction in batch {
                statistics.examinedTransactions += 1
                if let author = bounds.author, transaction.author != author { continue }
                if try accepts(descriptor.predicate, bounds, transaction, statistics: &statistics) {
                    matches.append(transaction)
                    if let stopEarly, matches.count >= stopEarly { break }
                }
            }
            if let stopEarly, matches.count >= stopEarly { break }
            guard batch.count == batchSize, let last = batch.last else { break }
            cursor = last.token.sequence
        }
        if !descriptor.sortBy.isEmpty {
            matches.sort(using: descriptor.sortBy)
        }
        if let limit = descriptor.fetchLimit, matches.count > limit {
            matches.removeSubrange(Swift.max(0, limit)...)
        }
        return matches
    }

    /// The most transactions asked of a source at once.
    static var batchSize: Int { 512 }

    /// Whether `transaction` matches: decided on the bounds when they are the whole predicate (the tokens
    /// were validated, so they compare by sequence), evaluated otherwise.
    private func accepts(
        _ predicate: Predicate<Transaction>?, _ bounds: HistoryPredicateBounds<Transaction>,
        _ transaction: Transaction, statistics: inout HistoryQueryStatistics
    ) throws(DataStoreError) -> Bool {
        guard let predicate else { return true }
        if bounds.isExact { return bounds.contains(transaction) }
        statistics.predicateEvaluations += 1
        do {
            return try predicate.evaluate(transaction)
        } catch {
            throw .predicateEvaluationFailed(store: storeIdentifier, reason: String(describing: error))
        }
    }
}
