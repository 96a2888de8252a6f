import DataStoreCore
import Foundation
import Testing
import TimeSeriesStorage

@Suite struct RangeSeekTests {
    /// A time-range fetch over a million samples in about a hundred segments opens only the segments that
    /// overlap the range, and returns what a brute-force filter of the inserted samples returns. Counted,
    /// never timed.
    @Test func aRangeQueryOverAMillionSamplesOpensOnlyTheOverlappingSegments() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try TimeSeriesDataStore(.readings(directory.url))
        let total = 1_000_000
        let batch = 10_000
        let start = Date().addingTimeInterval(-Double(total) - 3_600)
        for first in stride(from: 0, to: total, by: batch) {
            try append(readings(first..<(first + batch), from: start), to: store)
        }
        let segmentCount = try store.segmentFiles().count
        #expect(segmentCount >= 50)
        #expect(try store.currentToken().sequence == Int64(total / batch))

        // 1% of the time span, from sample 505,000 to 515,000: it overlaps the commits of batches 50 and 51.
        let from = start.addingTimeInterval(505_000)
        let to = start.addingTimeInterval(515_000)
        let before = store.statistics
        let sought = try store.fetch(
            DataStoreFetchRequest(
                descriptor: FetchDescriptor<Reading>(
                    predicate: #Predicate { $0.timestamp >= from && $0.timestamp < to })))
        #expect(store.statistics.segmentsOpened - before.segmentsOpened == 2)
        #expect(store.statistics.samplesExamined - before.samplesExamined == 2 * batch)

        // The brute-force answer: every inserted sample, filtered by time here.
        let oracle = (0..<total).lazy.filter { index in
            let time = start.addingTimeInterval(Double(index))
            return time >= from && time < to
        }
        #expect(Set(sought.snapshots) == Set(readings(Array(oracle), from: start)))
        #expect(sought.snapshots.count == 10_000)

        // A query outside every sample opens nothing; an unbounded one opens every segment.
        let later = Date().addingTimeInterval(60)
        let none = store.statistics
        #expect(
            try store.fetch(
                DataStoreFetchRequest(
                    descriptor: FetchDescriptor<Reading>(predicate: #Predicate { $0.timestamp > later }))
            ).snapshots.isEmpty)
        #expect(store.statistics.segmentsOpened == none.segmentsOpened)
    }

    /// History seeks too: after a token near the end, only the last segment is read.
    @Test func historyAfterATokenReadsOnlyTheSegmentsAfterIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try TimeSeriesDataStore(.readings(directory.url, span: 60))
        let start = Date().addingTimeInterval(-36_000)
        var tokens: [TimeSeriesHistoryToken] = []
        for first in stride(from: 0, to: 30_000, by: 300) {
            tokens.append(try #require(try append(readings(first..<(first + 300), from: start), to: store)))
        }
        #expect(try store.segmentFiles().count == 100)
        let token = tokens[97]
        let before = store.statistics
        let tail = try store.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > token }))
        #expect(tail.map(\.token) == Array(tokens[98...]))
        #expect(store.statistics.segmentsOpened - before.segmentsOpened <= 2)
        #expect(store.statistics.history.examinedTransactions - before.history.examinedTransactions <= 2)
    }
}
