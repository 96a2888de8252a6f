import DataStoreCore
import Foundation

/// What a store reads to answer history queries, by its own count (`HistoryReadCounting`). These are the
/// bugs results alone cannot show: a store that loads rows before validating the token, or reads all of
/// history to answer "after my token", returns the right transactions, only too late.
enum ReadChecks {
    /// The store's read counter; the check is skipped for a store that does not count its reads.
    static func examined<S>(_ h: Harness<S>) throws -> Int {
        guard let counting = h.store as? any HistoryReadCounting else {
            throw ConformanceSkip(
                reason: "\(S.self) does not conform to HistoryReadCounting, so its reads cannot be counted")
        }
        return counting.historyTransactionsExamined
    }

    static func tokenValidatedBeforeReading<S>(_ h: Harness<S>) throws {
        _ = try examined(h)
        let tokens = try DeletionChecks.trimmed(h)
        let otherEpoch = S.Token(
            storeIdentifier: tokens[0].storeIdentifier, epoch: UUID(), sequence: tokens[4].sequence)
        for (name, token) in [("an expired token", tokens[0]), ("a token of another epoch", otherEpoch)] {
            let before = try examined(h)
            try h.expect.error(
                "the store to reject \(name) (\(token))", matching: { _ in true },
                in: { _ = try h.history(HistoryDescriptor(predicate: HistoryPredicates.after(token))) })
            try h.expect.equal(try examined(h) - before, 0, "history transactions read to reject \(name)")
        }
    }

    static func historySeeksInsteadOfScanning<S>(_ h: Harness<S>) throws {
        let tokens = try h.saveItems((0..<60).map { "s\($0)" })
        var before = try examined(h)
        let tail = try h.history(HistoryDescriptor(predicate: HistoryPredicates.after(tokens[56])))
        try h.expect.equal(tail.map(\.token), Array(tokens[57...]), "the transactions after the 57th token")
        let tailReads = try examined(h) - before
        try h.expect.that(
            tailReads <= 6, "at most 6 of 60 transactions read for the 3 after the 57th token",
            observed: "\(tailReads) read")
        before = try examined(h)
        let page = try h.history(
            HistoryDescriptor(predicate: HistoryPredicates.after(tokens[9]), fetchLimit: 3))
        try h.expect.equal(page.map(\.token), Array(tokens[10..<13]), "3 transactions after the 10th token")
        let pageReads = try examined(h) - before
        try h.expect.that(
            pageReads <= 6, "at most 6 of 60 transactions read for a page of 3 after the 10th token",
            observed: "\(pageReads) read")
    }

    static func latestTokenReadsFromTheNewestEnd<S>(_ h: Harness<S>) throws {
        let tokens = try h.saveItems((0..<60).map { "n\($0)" })
        let keyPaths = S.HistoryType.keyPaths
        // Apple's pattern sorts on `transactionIdentifier`; where that is not the sequence, on `token`.
        let newestFirst =
            S.HistoryType.transactionIdentifierIsSequence
            ? SortDescriptor(keyPaths.transactionIdentifier, order: .reverse)
            : SortDescriptor(keyPaths.token, order: .reverse)
        for limit in [1, 3] {
            let before = try examined(h)
            let newest = try h.history(HistoryDescriptor(sortBy: [newestFirst], fetchLimit: limit))
            try h.expect.equal(
                newest.map(\.token), Array(tokens.suffix(limit).reversed()),
                "the newest \(limit) transaction(s), newest first")
            let reads = try examined(h) - before
            try h.expect.that(
                reads <= 2 * limit, "at most \(2 * limit) of 60 transactions read for the newest \(limit)",
                observed: "\(reads) read")
        }
    }
}

/// Thrown by a check that cannot run against this store; reported as skipped, never as passed.
struct ConformanceSkip: Error {
    var reason: String
}
