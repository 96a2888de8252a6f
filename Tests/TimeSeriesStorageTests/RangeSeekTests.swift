import DataStoreCore
import Foundation
import StoreTestSupport
import Testing
import TimeSeriesStorage

@Suite struct RangeSeekTests {
    /// A time-range fetch over a million samples in about a hundred segments opens only the segments that
    /// overlap the range, and returns what a brute-force filter of the inserted samples returns. Counted,
    /// never timed. Under a sanitizer 400,000 samples (``TestScale``): commits of 4,000 samples, each still
    /// longer than a segment's hour, so that each commit opens a segment of its own.
    @Test func aRangeQueryOverAMillionSamplesOpensOnlyTheOverlappingSegments() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try TimeSeriesDataStore(.readings(directory.url))
        let batch = TestScale.rounds(10_000, underSanitizer: 4_000)
        let total = 100 * batch
        let start = Date().addingTimeInterval(-Double(total) - 3_600)
        for first in stride(from: 0, to: total, by: batch) {
            try append(readings(first..<(first + batch), from: start), to: store)
        }
        let segmentCount = try store.segmentFiles().count
        #expect(segmentCount >= 50)
        #expect(try store.currentToken().sequence == Int64(total / batch))

        // 1% of the time span, from sample 50.5 batches to 51.5 (505,000 to 515,000 at full size): it overlaps the
        // commits of batches 50 and 51.
        let from = start.addingTimeInterval(Double(batch * 101 / 2))
        let to = start.addingTimeInterval(Double(batch * 103 / 2))
        let before = store.statistics
        let sought = try store.fetch(
            DataStoreFetchRequest(
                descriptor: FetchDescriptor<Reading>(
                    predicate: #Predicate { $0.timestamp >= from && $0.timestamp < to })))
        #expect(store.statistics.segmentsOpened - before.segmentsOpened == 2)
        // Within those two commits, only the samples inside the closed range [from, to] are decoded into values:
        // the 10,000 it returns and the one at `to`, which `<` then rejects (2 * batch before samples outside a
        // straddling commit's part of the range were skipped).
        #expect(store.statistics.samplesExamined - before.samplesExamined == batch + 1)

        // The brute-force answer: every inserted sample, filtered by time here.
        let oracle = (0..<total).lazy.filter { index in
            let time = start.addingTimeInterval(Double(index))
            return time >= from && time < to
        }
        #expect(Set(sought.snapshots) == Set(readings(Array(oracle), from: start)))
        #expect(sought.snapshots.count == batch)

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

    /// Comparisons on attributes are applied to the samples' values, and the predicate is then not evaluated
    /// again: every answer equals `Predicate.evaluate` over all the samples, for exact predicates (ranges,
    /// `!=`, several attributes) and inexact ones (`||`, a string method) alike.
    @Test func comparisonsOnSampleValuesAnswerAsThePredicateDoes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try TimeSeriesDataStore(.readings(directory.url, span: 600))
        let start = Date().addingTimeInterval(-20_000)
        for (offset, sensor) in ["s1", "s2", "s3"].enumerated() {
            try append(
                readings(offset * 3_000..<(offset + 1) * 3_000, from: start, sensor: sensor), to: store)
        }
        let all = try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Reading>())).snapshots
        #expect(all.count == 9_000)
        let from = start.addingTimeInterval(2_500)
        let to = start.addingTimeInterval(6_500)
        let predicates: [Predicate<Reading>] = [
            #Predicate { $0.timestamp >= from && $0.timestamp < to },
            #Predicate { $0.timestamp > from && $0.sensor != "s2" },
            #Predicate { $0.sensor == "s3" && $0.value >= 50 && $0.value < 60.5 },
            #Predicate { $0.value == 0 },
            #Predicate { $0.timestamp <= to && ($0.sensor == "s1" || $0.value > 99) },
            #Predicate { $0.sensor.contains("3") && $0.timestamp < to },
        ]
        for (number, predicate) in predicates.enumerated() {
            let expected = try all.filter { snapshot in
                try predicate.evaluate(try Reading(snapshot: snapshot))
            }
            let answer = try store.fetch(
                DataStoreFetchRequest(descriptor: FetchDescriptor<Reading>(predicate: predicate))
            ).snapshots
            let same = Set(answer) == Set(expected) && answer.count == expected.count
            #expect(same, "predicate \(number): \(answer.count) samples, expected \(expected.count)")
            #expect(number == 4 || number == 5 || !expected.isEmpty, "predicate \(number) matches nothing")
        }
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
