#if PostgreSQL
    @_spi(DataStoreInternals) import DataStoreCore
    import Foundation
    @testable import PostgresStorage
    import StoreTestSupport
    import Synchronization
    import Testing

    /// Many writers on many connections, and readers that follow by token: one order, nothing skipped.
    @Suite struct PostgresConcurrencyTests {
        /// 8 writers (each its own store instance, so its own connections) × 500 saves of three entries, in
        /// parallel, while 3 readers follow by token (two fetching after their token in a loop, one through
        /// `historyUpdates`): exactly 4,000 transactions, sequences 1…4,000, every entry there, and every reader
        /// saw the same transactions in the same order, each once.
        @Test(.timeLimit(.minutes(5))) func eightWritersAndThreeReadersAgreeOnOneOrder() async throws {
            let configuration = try PostgresServer.entryConfiguration()
            let writers = 8
            let saves = 500
            let total = writers * saves
            _ = try PostgresDataStore(configuration)

            // Two readers poll by token on threads of their own.
            let polled = Lock<[[Int64]]>([[], []])
            let writersDone = Lock(false)
            let readerGroup = DispatchGroup()
            for reader in 0..<2 {
                readerGroup.enter()
                Thread.detachNewThread {
                    defer { readerGroup.leave() }
                    do {
                        let store = try PostgresDataStore(configuration)
                        var token: PostgresHistoryToken?
                        var seen: [Int64] = []
                        while seen.count < total {
                            // Read the flag before fetching: a fetch that starts after the writers are done
                            // sees every commit, so an empty one then means there is nothing more.
                            let done = writersDone.withLock { $0 }
                            let batch = try store.fetchHistory(
                                HistoryDescriptor(predicate: token.map { HistoryPredicates.after($0) }))
                            seen += batch.map(\.token.sequence)
                            token = batch.last?.token ?? token
                            if batch.isEmpty && done { break }
                        }
                        polled.withLock { $0[reader] = seen }
                    } catch {
                        Issue.record("reader \(reader): \(error)")
                    }
                }
            }
            // The third follows `historyUpdates`.
            let following = Task {
                let store = try PostgresDataStore(configuration)
                var seen: [Int64] = []
                for try await transaction in store.historyUpdates(after: nil) {
                    seen.append(transaction.token.sequence)
                    if seen.count == total { break }
                }
                return seen
            }

            let writerGroup = DispatchGroup()
            let acknowledged = Lock<[Int64]>([])
            for writer in 0..<writers {
                writerGroup.enter()
                Thread.detachNewThread {
                    defer { writerGroup.leave() }
                    do {
                        let store = try PostgresDataStore(configuration)
                        for round in 0..<saves {
                            let result = try store.save(
                                DataStoreSaveChangesRequest(
                                    editingState: EditingState(author: "w\(writer)"),
                                    inserted: Entry.batch(
                                        store: store.identifier, writer: "w\(writer)", round: round)))
                            if let sequence = result.token?.sequence {
                                acknowledged.withLock { $0.append(sequence) }
                            }
                        }
                    } catch {
                        Issue.record("writer \(writer): \(error)")
                    }
                }
            }
            await withCheckedContinuation { continuation in
                writerGroup.notify(queue: .global()) { continuation.resume() }
            }
            writersDone.withLock { $0 = true }
            await withCheckedContinuation { continuation in
                readerGroup.notify(queue: .global()) { continuation.resume() }
            }
            let followed = try #require(try await value(of: following, within: .seconds(120)))

            let expected = Array(Int64(1)...Int64(total))
            // Compared first and reported by summary: a failure message listing 4,000 numbers helps nobody.
            func summary(_ sequences: [Int64]) -> String {
                let missing = Set(expected).subtracting(sequences).sorted().prefix(5)
                return "\(sequences.count) transactions, missing \(Array(missing)), "
                    + "\(sequences.count - Set(sequences).count) repeated, in order: \(sequences == sequences.sorted())"
            }
            let acknowledgedSequences = acknowledged.withLock { $0.sorted() }
            let allAcknowledged = acknowledgedSequences == expected
            #expect(allAcknowledged, "acknowledged: \(summary(acknowledgedSequences))")
            let store = try PostgresDataStore(configuration)
            let transactions = try store.fetchHistory(HistoryDescriptor())
            let history = transactions.map(\.token.sequence)
            let wholeHistory = history == expected
            #expect(wholeHistory, "history: \(summary(history))")
            #expect(transactions.allSatisfy { $0.changes.count == 3 })
            #expect(
                try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Entry>())).snapshots.count
                    == total * 3)
            for (reader, seen) in polled.withLock({ $0 }).enumerated() {
                let same = seen == expected
                #expect(same, "polling reader \(reader): \(summary(seen))")
            }
            let followedAll = followed == expected
            #expect(followedAll, "the historyUpdates reader: \(summary(followed))")
        }

        /// The late-commit race. Writer A takes the next position and holds its transaction open; writer B
        /// saves meanwhile. With positions from a plain sequence, B would commit position 2 while A's 1 is
        /// invisible, a reader would fetch 2 and move its token past 1, and never see A's save. Here B waits for
        /// the store's row lock (seen in `pg_locks`), the reader sees nothing new while A is open, and after A
        /// commits the reader, still after its token, gets A's save and then B's.
        @Test(.timeLimit(.minutes(1))) func aTransactionThatCommitsLateIsNotSkipped() async throws {
            let namespace = PostgresServer.freshNamespace()
            let configuration = try PostgresServer.entryConfiguration(namespace: namespace)
            let first = try PostgresDataStore(configuration)
            let second = try PostgresDataStore(configuration)
            let reader = try PostgresDataStore(configuration)
            let start = try reader.currentToken()

            let holding = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            first.beforeCommit = {
                holding.signal()
                release.wait()
            }
            let done = DispatchGroup()
            let results = Lock<[String: Int64]>([:])
            func save(_ store: PostgresDataStore, _ writer: String) {
                done.enter()
                Thread.detachNewThread {
                    defer { done.leave() }
                    do {
                        let result = try store.save(
                            DataStoreSaveChangesRequest(
                                inserted: Entry.batch(store: store.identifier, writer: writer, round: 0)))
                        results.withLock { $0[writer] = result.token?.sequence }
                    } catch {
                        Issue.record("\(writer): \(error)")
                    }
                }
            }
            save(first, "late")
            #expect(holding.wait(timeout: .now() + 30) == .success)
            save(second, "early")
            // B is blocked on A's lock, not finished.
            let waited = try await waitUntil {
                try PostgresServer.waitingLockCount(application: namespace) > 0
            }
            #expect(waited, "the second writer never waited for the store's lock")
            #expect(results.withLock { $0["early"] } == nil)
            let during = try reader.fetchHistory(HistoryDescriptor(predicate: HistoryPredicates.after(start)))
            #expect(
                during.isEmpty, "a reader saw \(during.map(\.token.sequence)) while the first save was open")
            let token = during.last?.token ?? start

            first.beforeCommit = nil
            release.signal()
            await withCheckedContinuation { continuation in
                done.notify(queue: .global()) { continuation.resume() }
            }
            #expect(results.withLock { $0 } == ["late": 1, "early": 2])
            let after = try reader.fetchHistory(HistoryDescriptor(predicate: HistoryPredicates.after(token)))
            #expect(after.map(\.token.sequence) == [1, 2])
            #expect(
                after.map { $0.changes.first?.changedPersistentIdentifier.primaryKey } == [
                    "late-0-a", "early-0-a",
                ])
        }
    }

    /// Polls `condition` every 10 ms for at most 20 s.
    func waitUntil(_ condition: () throws -> Bool) async throws -> Bool {
        for _ in 0..<2_000 {
            if try condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }
#endif
