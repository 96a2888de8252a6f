/// A store that counts the history transactions it reads, so that tests (and the conformance suite) can see
/// that it validates tokens before reading anything and seeks instead of scanning.
///
/// # Implementation requirements
///
/// - ``historyTransactionsExamined`` counts every transaction the store materialised to answer
///   `fetchHistory` and `deleteHistory` since it was opened: rows loaded from a database, records decoded from
///   a file, entries of an in-memory log looked at. A store that loads rows and then filters them in Swift
///   counts every row it loaded, not only the matches.
/// - It never decreases. Stores built on `HistoryQuery` add its ``HistoryQueryStatistics/examinedTransactions``.
public protocol HistoryReadCounting {
    /// The history transactions read since the store was opened.
    var historyTransactionsExamined: Int { get }
}
