package import DataStoreCore
package import Foundation

/// Reads a history newest first through a reader that only reads forward, in windows of sequences that start
/// at the newest end and grow toward the oldest.
///
/// Apple's pattern for the latest token (`sortBy: [SortDescriptor(\.transactionIdentifier, order: .reverse)]`,
/// `fetchLimit: 1`) sorts all of history to return one transaction; with this scan it reads a handful of the
/// newest transactions instead. Sequences are dense where history was not deleted, so a window of `n` sequences
/// holds at most `n` transactions; windows double (up to a bound) to cross gaps left by deleted history.
package struct NewestFirstScan {
    /// No transaction at or below this sequence is read (exclusive).
    var floor: Int64
    /// The newest sequence read (inclusive).
    var ceiling: Int64
    /// The first window's size in sequences: the number of matches wanted, when known.
    var firstWindow: Int

    /// A scan of the sequences above `floor` up to `ceiling`, whose first window holds `firstWindow`.
    package init(floor: Int64, ceiling: Int64, firstWindow: Int) {
        self.floor = floor
        self.ceiling = ceiling
        self.firstWindow = firstWindow
    }

    /// The largest window, so that no single read returns more than this many transactions.
    static let largestWindow: Int64 = 512

    /// Calls `read(after, through)` for windows from the newest end, and `visit` on each transaction of a window
    /// from the newest; stops when `visit` returns `true` or the floor is reached.
    package func run<Transaction>(
        sequence: (Transaction) -> Int64,
        read: (_ after: Int64, _ through: Int64) throws -> [Transaction],
        visit: (Transaction) throws -> Bool
    ) throws {
        var upper = ceiling
        var window = Swift.max(1, Swift.min(Int64(firstWindow), Self.largestWindow))
        while upper > floor {
            let (candidate, overflow) = upper.subtractingReportingOverflow(window)
            let lower = overflow ? floor : Swift.max(floor, candidate)
            let batch = try read(lower, upper)
            for transaction in batch.reversed() where sequence(transaction) > lower {
                if try visit(transaction) { return }
            }
            upper = lower
            window = Swift.min(window * 2, Self.largestWindow)
        }
    }

    /// Whether `sortBy` asks for newest-first commit order alone (a single reverse sort on `token`, or on
    /// `transactionIdentifier` where it equals the sequence), so that a newest-first scan returns the matches
    /// already sorted.
    package static func isNewestFirst<Transaction: HistoryTransaction>(
        _ sortBy: [SortDescriptor<Transaction>], transactionIdentifierIsSequence: Bool
    ) -> Bool {
        guard sortBy.count == 1, let sort = sortBy.first, sort.order == .reverse, let keyPath = sort.keyPath
        else {
            return false
        }
        let keyPaths = Transaction.keyPaths
        if keyPath == keyPaths.token as AnyKeyPath { return true }
        return transactionIdentifierIsSequence && keyPath == keyPaths.transactionIdentifier as AnyKeyPath
    }
}
