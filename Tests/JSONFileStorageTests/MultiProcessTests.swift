import DataStoreCore
import DataStoreKit
import Foundation
import JSONFileStorage
import SampleTrips
import StoreTestSupport
import Testing

/// Real processes sharing one store. Every test uses its own temporary directory and bounds its waits.
@Suite struct MultiProcessTests {
    func openEntries(_ directory: URL, readOnly: Bool = false) throws -> JSONFileDataStore {
        try JSONFileDataStore(
            .init(name: "entries", schema: Entry.schema, directory: directory, isReadOnly: readOnly))
    }

    @Test func fourWriterProcessesCommitEachTransactionExactlyOnce() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try openEntries(directory.url)  // create the store before the race
        let writers = try (0..<4).map { index in
            try ChildProcess(["write-loop", "jsonfile", directory.url.path, "w\(index)", "250"])
        }
        for writer in writers {
            #expect(writer.waitForExit(timeout: .seconds(120)) == 0)
            #expect(writer.output.filter { $0.hasPrefix("ACK ") }.count == 250)
        }

        let reader = try openEntries(directory.url, readOnly: true)
        let history = try reader.fetchHistory(.init())
        #expect(history.count == 1_000)
        #expect(history.map(\.token.sequence) == Array(1...1_000))
        let tokens = history.map(\.token)
        #expect(zip(tokens, tokens.dropFirst()).allSatisfy { $0 < $1 })
        // Each writer's 250 saves, each exactly once and whole.
        for index in 0..<4 {
            let mine = history.filter { $0.author == "w\(index)" }
            #expect(mine.count == 250)
            #expect(mine.allSatisfy { $0.changes.count == 3 })
        }
        #expect(try reader.modelCount() == 3_000)
        // The acknowledged sequences are exactly the committed ones.
        let acknowledged = writers.flatMap(\.output).compactMap {
            $0.hasPrefix("ACK ") ? Int64($0.dropFirst(4)) : nil
        }
        #expect(acknowledged.sorted() == Array(1...1_000))
        // Every reader sees the same total order.
        let other = try openEntries(directory.url)
        #expect(try other.fetchHistory(.init()).map(\.token) == tokens)
    }

    @Test func killNineDuringCheckpointsAndTrimsLosesNoAcknowledgedSave() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = JSONFileStoreConfiguration(
            name: "entries", schema: Entry.schema, directory: directory.url)
        configuration.checkpointJournalBytes = 2_048
        configuration.checkpointJournalRatio = nil
        configuration.historyRetention = .init(maximumTransactionCount: 16)
        _ = try JSONFileDataStore(configuration)
        let harness = CrashHarness(
            writerArguments: ["write-loop", "jsonfile-checkpointing", directory.url.path, "crasher"],
            rounds: 30)
        var lastToken: JSONFileHistoryToken?
        var checkpointed = false
        try harness.run(seed: 7) { round, acknowledged in
            let store = try JSONFileDataStore(configuration)  // a writer: repairs a torn tail
            let history = try store.fetchHistory(.init())
            let latest = history.last?.token.sequence ?? 0
            // Every acknowledged save is there, and nothing partial: each save inserted three entries, and
            // retention removes history, never models.
            #expect(latest >= (acknowledged.max() ?? 0), "round \(round.index)")
            #expect(try store.modelCount() == Int(latest) * 3, "round \(round.index)")
            // The newest transactions are kept, without gaps.
            let sequences = history.map(\.token.sequence)
            if let first = sequences.first {
                #expect(sequences == Array(first...latest), "round \(round.index)")
            }
            #expect(sequences.count <= 16 + 2, "round \(round.index): \(sequences.count) kept")
            // A token from an earlier round: still valid if its transaction is kept, expired if it was trimmed.
            if let token = lastToken {
                let oldest = sequences.first ?? latest + 1
                if token.sequence >= oldest - 1 {
                    #expect(throws: Never.self) {
                        try store.fetchHistory(HistoryDescriptor(predicate: HistoryPredicates.after(token)))
                    }
                } else {
                    #expect {
                        try store.fetchHistory(HistoryDescriptor(predicate: HistoryPredicates.after(token)))
                    } throws: {
                        ($0 as? DataStoreError)?.code == .historyTokenExpired
                    }
                }
            }
            lastToken = history.last?.token
            checkpointed = checkpointed || FileManager.default.fileExists(atPath: directory.snapshot.path)
            // The journal's records stay near the checkpoint size (free space after them aside).
            let journal = try recordBytes(of: directory.journal).count
            #expect(journal < 2_048 + 4_096, "round \(round.index): journal of \(journal) bytes")
        }
        #expect(checkpointed, "the writer never checkpointed")
    }

    @Test func killNineAtRandomMomentsLosesNoAcknowledgedSave() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try openEntries(directory.url)
        let harness = CrashHarness(
            writerArguments: ["write-loop", "jsonfile", directory.url.path, "crasher"], rounds: 30)
        try harness.run(seed: 42) { round, acknowledged in
            let store = try openEntries(directory.url)  // a writer: repairs a torn tail
            let history = try store.fetchHistory(.init())
            let sequences = history.map(\.token.sequence)
            // No gaps and no duplicates.
            #expect(sequences == (0..<sequences.count).map { Int64($0 + 1) })
            // Every acknowledged save is present.
            #expect(Set(acknowledged).isSubset(of: Set(sequences)), "round \(round.index)")
            // No partial transaction: every save inserted three entries, and the rows match history.
            #expect(history.allSatisfy { $0.changes.count == 3 }, "round \(round.index)")
            #expect(try store.modelCount() == history.count * 3, "round \(round.index)")
        }
    }

    @Test func theSeedsScenarioAcrossProcesses() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let tokenFile = directory.url.appendingPathComponent("app-token.json").path
        let store = directory.url.appendingPathComponent("trips").path

        func run(_ arguments: [String]) throws -> [String] {
            let child = try ChildProcess(arguments)
            #expect(child.waitForExit(timeout: .seconds(60)) == 0)
            return child.output
        }

        #expect(try run(["trips-seed", store]) == ["SEEDED 3"])
        // The app's first look has no token yet and reads all history (as in the seeds).
        #expect(try run(["trips-app", store, tokenFile]).last == "DONE 3")
        // The widget, in its own process, confirms a stay and deletes another.
        #expect(try run(["trips-widget", store]) == ["CONFIRMED Hotel Sol", "DELETED Tent Dune"])
        // The app, in a new process, finds exactly the affected trip through its token file.
        #expect(try run(["trips-app", store, tokenFile]) == ["UNREAD Trip to Lisbon", "DONE 1"])
        // Again: nothing new.
        #expect(try run(["trips-app", store, tokenFile]) == ["DONE 0"])
        let tokenJSON = try String(contentsOfFile: tokenFile, encoding: .utf8)
        #expect(tokenJSON.hasPrefix(#""v2:composite:trips:"#))
    }

    @Test func historyUpdatesDeliversAnotherProcessesCommitAndStopsWhenCancelled() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try openEntries(directory.url)
        let start = try store.currentToken()
        let watched = directory.url.standardizedFileURL.path

        let received = Task {
            var sequences: [Int64] = []
            for try await transaction in store.historyUpdates(after: start) {
                sequences.append(transaction.token.sequence)
                if sequences.count == 2 { break }
            }
            return sequences
        }
        // The feed is live (and this is its directory) before anything is written.
        for _ in 0..<100 where HistoryFeed.liveFeedCount(watching: watched) == 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(HistoryFeed.liveFeedCount(watching: watched) == 1)
        let writer = try ChildProcess(["write-loop", "jsonfile", directory.url.path, "other", "2"])
        #expect(await writer.exitStatus(within: .seconds(60)) == 0)
        let outcome = try await value(of: received, within: .seconds(20))
        #expect(outcome == [1, 2])

        // The feed's thread ends and closes its inotify descriptor within a few watcher intervals.
        #expect(HistoryFeed.liveFeedCount(watching: watched) <= 1)
        for _ in 0..<100 where HistoryFeed.liveFeedCount(watching: watched) > 0 {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(HistoryFeed.liveFeedCount(watching: watched) == 0)
    }

    @Test func anIdleFeedStaysAsleepWhileAnotherProcessOnlyReads() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try openEntries(directory.url)
        let watched = directory.url.standardizedFileURL.path
        let feed = Task {
            for try await _ in store.historyUpdates(after: try store.currentToken()) {}
        }
        defer { feed.cancel() }
        for _ in 0..<100 where HistoryFeed.refreshCount(watching: watched) == 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        let before = HistoryFeed.refreshCount(watching: watched)
        #expect(before == 1)  // the feed's first fetch

        let reader = try ChildProcess(["read-loop", "jsonfile", directory.url.path, "200"])
        #expect(await reader.exitStatus(within: .seconds(60)) == 0)
        try await Task.sleep(for: .milliseconds(300))
        #expect(HistoryFeed.refreshCount(watching: watched) == before)

        // A commit still wakes it.
        let writer = try ChildProcess(["write-loop", "jsonfile", directory.url.path, "other", "1"])
        #expect(await writer.exitStatus(within: .seconds(60)) == 0)
        for _ in 0..<200 where HistoryFeed.refreshCount(watching: watched) == before {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(HistoryFeed.refreshCount(watching: watched) > before)
    }
}
