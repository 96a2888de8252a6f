import DataStoreCore
import DataStoreKit
import Foundation
import JSONFileStorage
import Testing

/// Issue 37, item 9: a slow consumer of `historyUpdates(after:)` does not make the feed read and hold the whole
/// backlog; it gets every transaction, in order, when it catches up.
@Suite struct BoundedFeedTests {
    @Test func aSlowConsumerKeepsTheFeedToAFewPagesAndLosesNothing() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try openMemoStore(directory.url, durability: .relaxed)
        let count = 3_000
        for index in 0..<count { try saveMemo("m\(index)", to: store) }
        let examinedBefore = store.historyTransactionsExamined

        var iterator = store.historyUpdates(after: nil).makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first?.token.sequence == 1)
        // The consumer pauses: wait until the feed stops reading (its count holds still), bounded in time.
        var examined = store.historyTransactionsExamined
        for _ in 0..<50 {
            try await Task.sleep(for: .milliseconds(40))
            let now = store.historyTransactionsExamined
            if now == examined { break }
            examined = now
        }
        // A page handed out, a page held for the stream's buffer, a page waiting: never the whole backlog.
        #expect(examined - examinedBefore <= 3 * HistoryFeed.pageSize)

        var sequences: [Int64] = [first?.token.sequence ?? 0]
        while sequences.count < count, let next = try await iterator.next() {
            sequences.append(next.token.sequence)
        }
        #expect(sequences == Array(1...Int64(count)))
    }
}
