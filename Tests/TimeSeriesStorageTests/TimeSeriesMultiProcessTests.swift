import DataStoreCore
import Foundation
import StoreTestSupport
import Testing
import TimeSeriesStorage

@Suite struct TimeSeriesMultiProcessTests {
    func openEntries(_ directory: URL) throws -> TimeSeriesDataStore {
        try TimeSeriesDataStore(
            .init(name: "entries", schema: Entry.schema, directory: directory, segmentSpan: 1))
    }

    /// The JSON file store's kill -9 test, with the same harness.
    @Test func killNineAtRandomMomentsLosesNoAcknowledgedSave() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try openEntries(directory.url)
        let harness = CrashHarness(
            writerArguments: ["write-loop", "timeseries", directory.url.path, "crasher"], rounds: 30)
        try harness.run(seed: 7) { round, acknowledged in
            let store = try openEntries(directory.url)
            let history = try store.fetchHistory(.init())
            let sequences = history.map(\.token.sequence)
            #expect(sequences == (0..<sequences.count).map { Int64($0 + 1) }, "round \(round.index)")
            #expect(Set(acknowledged).isSubset(of: Set(sequences)), "round \(round.index)")
            #expect(history.allSatisfy { $0.changes.count == 3 }, "round \(round.index)")
            let samples = try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Entry>()))
                .snapshots
            #expect(samples.count == history.count * 3, "round \(round.index)")
        }
    }

    /// A reader process follows a writer process through `historyUpdates` and receives every transaction
    /// exactly once, in order.
    @Test func aReaderProcessFollowsAWriterProcess() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try openEntries(directory.url)
        let reader = try ChildProcess(["follow", "timeseries", directory.url.path, "100"])
        #expect(reader.waitForLines(1, timeout: .seconds(30)))
        let writer = try ChildProcess(["write-loop", "timeseries", directory.url.path, "w", "100"])
        #expect(writer.waitForExit(timeout: .seconds(60)) == 0)
        #expect(reader.waitForExit(timeout: .seconds(60)) == 0)
        let received = reader.output.dropFirst().map { $0 }
        #expect(received == (1...100).map { "TX \($0) 3" })
    }
}
