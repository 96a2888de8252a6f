import DataStoreCore
import DataStoreSync
import Foundation
import JSONFileStorage
import PostgresStorage
import Synchronization

/// Scenario 16: DataStoreSync against PostgreSQL (Docs/Sync.md). Needs a server: `DATASTORE_POSTGRES_URL`
/// (Scripts/with-postgres sets it); skipped without one.
///
/// - `sync_push_vs_sql_copy`: a device pushes 200 transactions of 10 changed notes to the server, against
///   writing the same rows to PostgreSQL by hand: 200 libpq transactions of 10 upserts into a plain table (no
///   history, no cursor). Target ≥ 0.5×.
/// - `sync_pull_vs_one_local_save`: a device pulls those 200 transactions, against saving the same 2,000 notes
///   to a device store in one save (lower is better; recorded, no target).
/// - `sync_latency_p50`, `sync_latency_p99`: two devices in continuous mode; device A commits one change at a
///   time and the time until it is in device B's store is measured, over 1,000 commits (200 with `--quick`).
///   Target p99 ≤ 250 ms.
enum SyncBenchmarkScenario {
    static func run(_ report: Report, _ sizes: Sizes) throws {
        guard let url = ProcessInfo.processInfo.environment["DATASTORE_POSTGRES_URL"] else {
            out("sync: skipped (DATASTORE_POSTGRES_URL is not set; run under Scripts/with-postgres)")
            return
        }
        let raw = try RawPostgres(url)
        try raw.execute("SET client_min_messages = warning")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sync-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var namespaces: [String] = []
        defer {
            for namespace in namespaces { _ = try? raw.execute("DROP SCHEMA IF EXISTS \(namespace) CASCADE") }
        }
        func fresh() -> String {
            let namespace = "syncbench_" + UUID().uuidString.prefix(8).lowercased()
            namespaces.append(namespace)
            return namespace
        }
        let schema = Schema([Note.self, SyncCursor.self])
        func server(_ namespace: String) throws -> PostgresDataStore {
            try PostgresDataStore(
                .init(name: "server", schema: schema, connectionString: url, databaseSchema: namespace))
        }
        func device(_ name: String) throws -> JSONFileDataStore {
            try JSONFileDataStore(
                .init(
                    name: name, schema: schema,
                    directory: directory.appendingPathComponent("\(name)-\(UUID().uuidString)"),
                    durability: .relaxed))
        }

        // Throughput: the same 200 transactions of 10 notes each, pushed or copied by hand.
        let transactions = 200
        struct Run {
            let engine: SyncEngine<JSONFileDataStore, PostgresDataStore>
            let server: PostgresDataStore
            let rows: [[DataStoreSnapshot]]
            let table: String
        }
        var last: Run?
        let (push, copy) = try Measure.pair(
            repetitions: sizes.repetitions,
            input: { () throws -> Run in
                let local = try device("a")
                var rows: [[DataStoreSnapshot]] = []
                for index in 0..<transactions {
                    let batch = (0..<10).map {
                        note(index * 10 + $0, store: local.identifier, body: "t\(index)")
                    }
                    _ = try local.save(DataStoreSaveChangesRequest(inserted: batch))
                    rows.append(batch)
                }
                let namespace = fresh()
                let server = try server(namespace)
                let table = "\(namespace).copied"
                try raw.execute(
                    "CREATE TABLE \(table) (key text PRIMARY KEY, title text, body text, rank bigint)")
                let run = Run(
                    engine: try SyncEngine(local: local, server: server, device: "a", models: [Note.self]),
                    server: server, rows: rows, table: table)
                last = run
                return run
            },
            candidate: { run in _ = try run.engine.push() },
            baseline: { run in
                for batch in run.rows {
                    try raw.execute("BEGIN")
                    for row in batch {
                        try raw.execute(
                            """
                            INSERT INTO \(run.table) VALUES ($1, $2, $3, $4)
                            ON CONFLICT (key) DO UPDATE SET title = excluded.title, body = excluded.body,
                                rank = excluded.rank
                            """,
                            [
                                row.persistentIdentifier.primaryKey, text(row[attribute: "title"]),
                                text(row[attribute: "body"]), text(row[attribute: "rank"]),
                            ])
                    }
                    try raw.execute("COMMIT")
                }
            })
        if let run = last {
            let pushed = try run.server.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Note>()))
                .snapshots
            let copied = try raw.execute("SELECT key, body FROM \(run.table) ORDER BY key")
            let pushedRows = pushed.map { [$0.persistentIdentifier.primaryKey, text($0[attribute: "body"])] }
                .sorted { $0[0] < $1[0] }
            try verify(
                pushedRows == copied && copied.count == transactions * 10, "sync_push_vs_sql_copy",
                "the server holds \(pushed.count) notes, the copy \(copied.count), and they differ")
        }
        report.ratio(
            "sync_push_vs_sql_copy", candidate: push, baseline: copy, atLeast: 0.5,
            candidateLabel: "push of 200 device transactions of 10 notes",
            baselineLabel: "200 libpq transactions of 10 upserts into a plain table")

        // Pull throughput: device B reads the 200 transactions A pushed and applies them, against saving the
        // same notes to a device store directly in one save (the pull's one page). Recorded, no target: what
        // a device far behind pays per transaction it catches up on.
        struct PullRun {
            let engine: SyncEngine<JSONFileDataStore, PostgresDataStore>
            let direct: JSONFileDataStore
            let rows: [DataStoreSnapshot]
        }
        var lastPull: PullRun?
        let (pull, direct) = try Measure.pair(
            repetitions: sizes.repetitions,
            input: { () throws -> PullRun in
                let a = try device("a")
                let b = try device("b")
                let namespace = fresh()
                let engineA = try SyncEngine(
                    local: a, server: try server(namespace), device: "a", models: [Note.self])
                let engineB = try SyncEngine(
                    local: b, server: try server(namespace), device: "b", models: [Note.self])
                // B's first pull is a full copy; the server's history must hold a transaction for B's cursor to
                // name, or B's next pull is a full copy again instead of reading history.
                _ = try a.save(DataStoreSaveChangesRequest(inserted: [note(-1, store: a.identifier)]))
                _ = try engineA.push()
                try engineB.sync()
                for index in 0..<transactions {
                    let batch = (0..<10).map {
                        note(index * 10 + $0, store: a.identifier, body: "t\(index)")
                    }
                    _ = try a.save(DataStoreSaveChangesRequest(inserted: batch))
                }
                _ = try engineA.push()
                let rows =
                    [note(-1, store: "direct")]
                    + (0..<transactions * 10).map { note($0, store: "direct", body: "t\($0 / 10)") }
                let direct = try device("direct")
                _ = try direct.save(DataStoreSaveChangesRequest(inserted: [rows[0]]))
                let run = PullRun(engine: engineB, direct: direct, rows: Array(rows.dropFirst()))
                lastPull = run
                return run
            },
            candidate: { run in _ = try run.engine.pull() },
            baseline: { run in _ = try run.direct.save(DataStoreSaveChangesRequest(inserted: run.rows)) })
        if let run = lastPull {
            let pulled = try run.engine.local.fetch(
                DataStoreFetchRequest(descriptor: FetchDescriptor<Note>())
            )
            .snapshots.map { [$0.persistentIdentifier.primaryKey, text($0[attribute: "body"])] }
            let saved = try run.direct.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Note>()))
                .snapshots.map { [$0.persistentIdentifier.primaryKey, text($0[attribute: "body"])] }
            try verify(
                pulled.sorted { $0[0] < $1[0] } == saved.sorted { $0[0] < $1[0] }
                    && saved.count == transactions * 10 + 1
                    && run.engine.status.pulledTransactionCount == transactions,
                "sync_pull_vs_one_local_save",
                "the pulling device holds \(pulled.count) notes, the direct saves \(saved.count), and they differ "
                    + "(or the pull copied the server whole: \(run.engine.status.pulledTransactionCount) read from history)"
            )
        }
        report.metric(
            "sync_pull_vs_one_local_save", pull.median / direct.median, "x",
            detail:
                "pull of 200 server transactions of 10 notes (read from PostgreSQL, applied in one device save): "
                + "median \(Report.time(pull.median)) (min \(Report.time(pull.min)), max \(Report.time(pull.max))); "
                + "one device save of the 2,000 notes: median \(Report.time(direct.median)); "
                + "\(pull.samples.count) interleaved runs each; lower is better")

        // Latency: device A commits one change at a time; B, syncing continuously, must hold it.
        let commits = report.quick ? 200 : 1_000
        let namespace = fresh()
        let shared = try server(namespace)
        let a = try device("a")
        let b = try device("b")
        let seed = (0..<10).map { note($0, store: a.identifier) }
        _ = try a.save(DataStoreSaveChangesRequest(inserted: seed))
        let engineA = try SyncEngine(local: a, server: shared, device: "a", models: [Note.self])
        let engineB = try SyncEngine(
            local: b, server: try server(namespace), device: "b", models: [Note.self])
        try engineA.sync()
        try engineB.sync()
        // B's arrivals: each pulled transaction's bodies, with the time it was seen.
        let arrivals = Mutex<[String: ContinuousClock.Instant]>([:])
        let arrived = DispatchSemaphore(value: 0)
        let watcher = Task {
            let newest = try b.fetchHistory(HistoryDescriptor()).last?.token
            for try await transaction in b.historyUpdates(after: newest) {
                let now = ContinuousClock.now
                for change in transaction.changes {
                    guard case .string(let body)? = change.values["body"] else { continue }
                    arrivals.withLock { $0[body] = now }
                }
                arrived.signal()
            }
        }
        engineA.start()
        engineB.start()
        defer {
            engineA.stop()
            engineB.stop()
            watcher.cancel()
        }
        var latencies: [Double] = []
        for index in 0..<commits {
            let body = "c\(index)"
            let id = PersistentIdentifier(
                storeIdentifier: a.identifier, entityName: "Note", primaryKey: "n\(index % 10)")
            let start = ContinuousClock.now
            _ = try a.save(
                DataStoreSaveChangesRequest(updated: [
                    DataStoreSnapshot(persistentIdentifier: id, values: ["body": .string(body)])
                ]))
            var seen: ContinuousClock.Instant?
            while seen == nil {
                guard arrived.wait(timeout: .now() + 10) == .success else { break }
                seen = arrivals.withLock { $0[body] }
            }
            guard let seen else {
                throw MismatchError(
                    scenario: "sync_latency", what: "commit \(index) did not reach B within 10 s")
            }
            let elapsed = seen - start
            latencies.append(
                Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        let sorted = latencies.sorted()
        let p50 = sorted[sorted.count / 2] * 1_000
        let p99 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))] * 1_000
        report.metric(
            "sync_latency_p50", p50, "ms",
            detail:
                "commit on device A to visible in device B's store, continuous mode, \(commits) commits one at a time"
        )
        report.metric(
            "sync_latency_p99", p99, "ms", target: "<= 250 ms", met: p99 <= 250,
            detail: "max \(Report.format(sorted.last! * 1_000)) ms")
    }

    static func text(_ value: SnapshotValue) -> String {
        switch value {
        case .string(let text): text
        case .integer(let number): String(number)
        default: ""
        }
    }
}
