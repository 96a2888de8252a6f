import Foundation
import StoreTestSupport
import Testing

@testable import DataStoreCore
@testable import DataStoreKit

enum SourceProbeHistory: HistoryTokenKind { static let name = "probe" }
typealias SourceProbeToken = GenericHistoryToken<SourceProbeHistory>
typealias SourceProbeTransaction = GenericHistoryTransaction<SourceProbeHistory>

/// `HistoryQuery` over a source a database store would implement: it validates before asking the source for
/// anything, and reads batches in order only until the limit.
@Suite struct HistorySourceTests {
    /// A source over an in-memory log that records every call.
    final class CountingSource: HistorySource {
        let log: [SourceProbeTransaction]
        var calls: [(after: Int64, through: Int64, limit: Int)] = []
        var returned = 0
        init(_ log: [SourceProbeTransaction]) { self.log = log }
        func transactions(
            after: Int64, through: Int64, bounds: HistoryPredicateBounds<SourceProbeTransaction>, limit: Int
        ) -> [SourceProbeTransaction] {
            calls.append((after, through, limit))
            let batch = InMemoryHistoryLog(log).transactions(
                after: after, through: through, bounds: bounds, limit: limit)
            returned += batch.count
            return batch
        }
    }

    static let epoch = UUID()

    static func log(_ count: Int) -> [SourceProbeTransaction] {
        let start = Date(timeIntervalSinceReferenceDate: 0)
        return (1...count).map { (sequence: Int) -> SourceProbeTransaction in
            let token = SourceProbeToken(storeIdentifier: "s", epoch: epoch, sequence: Int64(sequence))
            let author: String = sequence % 3 == 0 ? "widget" : "app"
            return SourceProbeTransaction(
                timestamp: start.addingTimeInterval(Double(sequence)), changes: [], token: token,
                author: author,
                bundleIdentifier: "b", processIdentifier: "1")
        }
    }

    func query(oldest: Int64 = 0, latest: Int64 = 5_000) -> HistoryQuery<SourceProbeTransaction> {
        HistoryQuery(
            storeIdentifier: "s", epoch: Self.epoch, oldestValidSequence: oldest, latestSequence: latest)
    }

    @Test func tokensAreValidatedBeforeTheSourceIsAskedForAnything() {
        let source = CountingSource(Self.log(5_000))
        var statistics = HistoryQueryStatistics()
        let expired = SourceProbeToken(storeIdentifier: "s", epoch: Self.epoch, sequence: 10)
        #expect(throws: DataStoreError.self) {
            try query(oldest: 100).run(
                HistoryDescriptor(predicate: #Predicate { $0.token > expired }), source: source,
                statistics: &statistics)
        }
        let foreign = SourceProbeToken(storeIdentifier: "s", epoch: UUID(), sequence: 10)
        #expect(throws: DataStoreError.self) {
            try query().run(
                HistoryDescriptor(predicate: #Predicate { $0.token > foreign }), source: source,
                statistics: &statistics)
        }
        #expect(source.calls.isEmpty)
        #expect(statistics.examinedTransactions == 0)
    }

    @Test func aLimitedQueryReadsSoughtBatchesOnlyUntilTheLimit() throws {
        let log = Self.log(5_000)
        let source = CountingSource(log)
        var statistics = HistoryQueryStatistics()
        let token = log[4_000].token
        let widget = try query().run(
            HistoryDescriptor(
                predicate: #Predicate { $0.token > token && $0.author == "widget" }, fetchLimit: 20),
            source: source, statistics: &statistics)
        #expect(
            widget.map(\.token.sequence)
                == log[4_001...].filter { $0.author == "widget" }.prefix(20).map(\.token.sequence))
        // Sought: the first call starts after the token; read: about three per match, not 999.
        #expect(source.calls.first?.after == token.sequence)
        #expect(source.returned <= 20 * 3 + 20, "\(source.returned) read")
        #expect(statistics.examinedTransactions == source.returned)
        // Without a limit, every candidate comes in batches of at most the batch size, in order.
        let all = try query().run(HistoryDescriptor(), source: CountingSource(log), statistics: &statistics)
        #expect(all.map(\.token.sequence) == log.map(\.token.sequence))
    }

    /// `firstRead` is what a database backend sends with its state read: it must be exactly the query's first
    /// call to the source, for descriptors of every shape, and `nil` exactly when the query reads from the
    /// newest end or reads nothing.
    @Test func firstReadPredictsTheQuerysFirstCall() throws {
        let log = Self.log(2_000)
        let low = log[500].token
        let high = log[1_500].token
        let descriptors: [HistoryDescriptor<SourceProbeTransaction>] = [
            HistoryDescriptor(),
            HistoryDescriptor(predicate: #Predicate { $0.token > low }),
            HistoryDescriptor(predicate: #Predicate { $0.token > low }, fetchLimit: 7),
            HistoryDescriptor(
                predicate: #Predicate { $0.token >= low && $0.token < high }, fetchLimit: 5_000),
            HistoryDescriptor(predicate: #Predicate { $0.token > high && $0.token < low }),
            HistoryDescriptor(predicate: #Predicate { $0.author == "widget" }, fetchLimit: 0),
            HistoryDescriptor(
                predicate: #Predicate { $0.transactionIdentifier > 1_900 },
                sortBy: [SortDescriptor(\.timestamp)],
                fetchLimit: 3),
            HistoryDescriptor(sortBy: [SortDescriptor(\.token, order: .reverse)], fetchLimit: 3),
        ]
        var predicted = 0
        for descriptor in descriptors {
            let source = CountingSource(log)
            var statistics = HistoryQueryStatistics()
            _ = try query(latest: 2_000).run(descriptor, source: source, statistics: &statistics)
            let first = HistoryQuery<SourceProbeTransaction>.firstRead(descriptor)
            let isNewestFirst =
                descriptor.fetchLimit != nil && !descriptor.sortBy.isEmpty
                && descriptor.predicate == nil
            if let first {
                predicted += 1
                #expect(source.calls.first?.after == first.after)
                #expect(source.calls.first?.through == first.through)
                #expect(source.calls.first?.limit == first.limit)
            } else {
                #expect(source.calls.isEmpty || isNewestFirst)
            }
        }
        #expect(predicted == 5)
    }

    /// A predicate wholly expressed by its bounds is decided on them instead of evaluated; over random
    /// bounds on every seekable field, the answers equal `Predicate.evaluate` over the whole log.
    @Test func predicatesDecidedOnTheirBoundsAnswerAsEvaluationDoes() throws {
        let log = Self.log(300)
        var random = SplitMix64(seed: 7)
        func pick() -> Int { Int(random.next() % 300) }
        var decided = 0
        for _ in 0..<200 {
            let token = log[pick()].token
            let other = log[pick()].token
            let date = log[pick()].timestamp
            let identifier = Int64(pick())
            let author = random.next() % 2 == 0 ? "widget" : "app"
            let predicates: [Predicate<SourceProbeTransaction>] = [
                #Predicate { $0.token > token && $0.token <= other },
                #Predicate { $0.token >= token && $0.author == author },
                #Predicate { $0.timestamp > date && $0.token < other },
                #Predicate { $0.timestamp <= date && $0.transactionIdentifier >= identifier },
                #Predicate { $0.token == token },
                #Predicate { $0.transactionIdentifier < identifier && $0.author == author },
                #Predicate { $0.timestamp >= date && $0.author != author },
                #Predicate { $0.token > token || $0.author == author },
            ]
            let predicate = predicates[Int(random.next() % UInt64(predicates.count))]
            if HistoryPredicateBounds(predicate).isExact { decided += 1 }
            var statistics = HistoryQueryStatistics()
            let answer = try query(latest: 300).run(
                HistoryDescriptor(predicate: predicate), source: CountingSource(log), statistics: &statistics)
            let expected = try log.filter { try predicate.evaluate($0) }
            #expect(answer.map(\.token.sequence) == expected.map(\.token.sequence))
        }
        #expect(decided > 100)
    }
}
