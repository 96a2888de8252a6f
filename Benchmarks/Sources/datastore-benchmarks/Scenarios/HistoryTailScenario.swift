import DataStoreCore
import Foundation
import InMemoryStorage
import JSONFileStorage
import TimeSeriesStorage

/// Scenario 1: the 100 transactions after a token near the end of a long history, with
/// `#Predicate { $0.token > t }`, against `Predicate.evaluate` over every transaction.
enum HistoryTailScenario {
    static func run(_ report: Report, _ sizes: Sizes) throws {
        let count = sizes.historyTransactions
        out("history tail: \(count) transactions per backend")

        let memory = try InMemoryDataStore(.init(name: "bench", schema: Note.schema))
        for index in 0..<count {
            _ = try memory.save(DataStoreSaveChangesRequest(inserted: [note(index, store: "bench")]))
        }
        let memoryAll = try memory.fetchHistory(HistoryDescriptor())
        let memoryToken = memoryAll[memoryAll.count - 101].token
        try compare(
            report, "inmemory", all: memoryAll, target: 1000,
            predicate: #Predicate<InMemoryHistoryTransaction> { $0.token > memoryToken },
            fetch: { try memory.fetchHistory($0) })

        let scratch = try Scratch("tail")
        let json = try JSONFileDataStore(
            .init(name: "bench", schema: Note.schema, directory: scratch.path("json"), durability: .relaxed))
        for index in 0..<count {
            _ = try json.save(DataStoreSaveChangesRequest(inserted: [note(index, store: "bench")]))
        }
        let jsonAll = try json.fetchHistory(HistoryDescriptor())
        let jsonToken = jsonAll[jsonAll.count - 101].token
        try compare(
            report, "jsonfile", all: jsonAll, target: 100,
            predicate: #Predicate<JSONFileHistoryTransaction> { $0.token > jsonToken },
            fetch: { try json.fetchHistory($0) })

        // Segments of five minutes of samples: a tail read decodes one or two small segments.
        let series = try TimeSeriesDataStore(
            .init(
                name: "bench", schema: Note.schema, directory: scratch.path("ts"), segmentSpan: 300,
                isDurable: false))
        let start = Date().addingTimeInterval(-Double(count) - 60)
        for index in 0..<count {
            _ = try series.save(
                DataStoreSaveChangesRequest(inserted: [
                    note(index, store: "bench", at: start.addingTimeInterval(Double(index)))
                ]))
        }
        let seriesAll = try series.fetchHistory(HistoryDescriptor())
        let seriesToken = seriesAll[seriesAll.count - 101].token
        try compare(
            report, "timeseries", all: seriesAll, target: 100,
            predicate: #Predicate<TimeSeriesHistoryTransaction> { $0.token > seriesToken },
            fetch: { try series.fetchHistory($0) })
    }

    static func compare<Transaction: HistoryTransaction>(
        _ report: Report, _ backend: String, all: [Transaction], target: Double,
        predicate: Predicate<Transaction>,
        fetch: (HistoryDescriptor<Transaction>) throws -> [Transaction]
    ) throws where Transaction.Token: StoreHistoryToken {
        let descriptor = HistoryDescriptor(predicate: predicate)
        let sought = try fetch(descriptor)
        let scanned = try all.filter { try predicate.evaluate($0) }
        try verify(
            sought.map(\.token) == scanned.map(\.token), "history_tail_\(backend)",
            "\(sought.count) vs \(scanned.count) transactions")
        try verify(
            sought.count == 100, "history_tail_\(backend)",
            "\(sought.count) transactions after the token, not 100")
        var result: [Transaction] = []
        let (candidate, baseline) = try Measure.pair(
            repetitions: report.quick ? 5 : 7, candidate: { result = try fetch(descriptor) },
            baseline: { result = try all.filter { try predicate.evaluate($0) } })
        _ = result
        report.ratio(
            "history_tail_speedup_\(backend)", candidate: candidate, baseline: baseline, atLeast: target,
            candidateLabel: "seek", baselineLabel: "Predicate.evaluate over \(all.count)")
        report.metric("history_tail_us_\(backend)", candidate.median * 1e6, "us")
    }
}
