import DataStoreCore
import Foundation
import PostgresStorage

/// Scenario 9: the PostgreSQL store against hand-written libpq transactions and queries on the same server.
/// Needs a server: `DATASTORE_POSTGRES_URL` (Scripts/with-postgres sets it); skipped without one.
enum PostgresScenario {
    static func run(_ report: Report, _ sizes: Sizes) throws {
        guard let url = ProcessInfo.processInfo.environment["DATASTORE_POSTGRES_URL"] else {
            out("postgres: skipped (DATASTORE_POSTGRES_URL is not set; run under Scripts/with-postgres)")
            return
        }
        let namespace = "bench_" + UUID().uuidString.prefix(8).lowercased()
        let raw = try RawPostgres(url)
        defer { _ = try? raw.execute("DROP SCHEMA IF EXISTS \(namespace) CASCADE") }
        let store = try PostgresDataStore(
            .init(name: "bench", schema: Note.schema, connectionString: url, databaseSchema: namespace))
        let models = 1_000
        _ = try store.save(
            DataStoreSaveChangesRequest(inserted: (0..<models).map { note($0, store: "bench") }))

        // The baseline's own tables: the same rows, a history table keyed by sequence.
        try raw.execute("SET client_min_messages = warning")
        try raw.execute(
            "CREATE TABLE \(namespace).raw_models (key text PRIMARY KEY, title text, body text, rank bigint)")
        try raw.execute(
            """
            CREATE TABLE \(namespace).raw_history (sequence bigint PRIMARY KEY, timestamp float8, author text,
                changes text)
            """)
        var sequence: Int64 = 0
        func rawSave(_ batch: [DataStoreSnapshot]) throws {
            try raw.execute("BEGIN")
            for snapshot in batch {
                try raw.execute(
                    """
                    INSERT INTO \(namespace).raw_models VALUES ($1, $2, $3, $4)
                    ON CONFLICT (key) DO UPDATE SET body = excluded.body
                    """,
                    [
                        snapshot.persistentIdentifier.primaryKey, text(snapshot[attribute: "title"]),
                        text(snapshot[attribute: "body"]), text(snapshot[attribute: "rank"]),
                    ])
            }
            sequence += 1
            try raw.execute(
                "INSERT INTO \(namespace).raw_history VALUES ($1, $2, $3, $4)",
                [
                    String(sequence), "\(Date().timeIntervalSinceReferenceDate)", "bench",
                    batch.map(\.persistentIdentifier.primaryKey).joined(separator: ","),
                ])
            try raw.execute("COMMIT")
        }
        func text(_ value: SnapshotValue) -> String {
            switch value {
            case .string(let text): text
            case .integer(let number): String(number)
            default: ""
            }
        }
        var round = 0
        func tenChanged() -> [DataStoreSnapshot] {
            round += 1
            return (0..<10).map { note(($0 * 131 + round) % models, store: "bench", body: "r\(round)") }
        }

        // 9a. Durable 10-change saves (synchronous_commit on: each COMMIT waits for the WAL flush). A hundred per
        // side and repetition: with twenty, the server's background work after one side's burst landed on the
        // other, and the ratio swung between 0.3 and 1.0 from run to run.
        let (saves, rawSaves) = try Measure.pair(
            repetitions: sizes.repetitions, input: { (0..<100).map { _ in tenChanged() } },
            candidate: { batches in
                for batch in batches { _ = try store.save(DataStoreSaveChangesRequest(updated: batch)) }
            },
            baseline: { batches in for batch in batches { try rawSave(batch) } })
        let stored = try store.fetch(
            DataStoreFetchRequest(
                descriptor: FetchDescriptor<Note>(predicate: #Predicate { $0.body != "hello" })))
        let rawChanged = try raw.execute("SELECT count(*) FROM \(namespace).raw_models")
        try verify(
            stored.snapshots.count == Int(rawChanged.first?.first ?? "") ?? -1, "postgres_vs_libpq_saves",
            "the store changed \(stored.snapshots.count) models, the baseline \(rawChanged)")
        report.ratio(
            "postgres_vs_libpq_saves", candidate: saves, baseline: rawSaves, atLeast: 0.7,
            candidateLabel: "100 durable 10-change saves",
            baselineLabel: "100 hand-written libpq transactions (10 upserts + a history row)")

        // 9b. The 100 transactions after a token near the end, against the same rows read by an indexed query.
        for _ in 0..<(sizes.repetitions > 5 ? 1_000 : 300) {
            _ = try store.save(DataStoreSaveChangesRequest(updated: tenChanged()))
        }
        let newest = try store.currentToken()
        let token = PostgresHistoryToken(
            storeIdentifier: "bench", epoch: newest.epoch, sequence: newest.sequence - 100)
        let descriptor = HistoryDescriptor<PostgresHistoryTransaction>(
            predicate: #Predicate { $0.token > token })
        func sqlTail() throws -> [[String]] {
            try raw.execute(
                """
                SELECT sequence, timestamp, first_change, author, bundle_identifier, process_identifier, changes
                FROM \(namespace).history WHERE store = $1 AND sequence > $2 ORDER BY sequence
                """, ["bench", String(token.sequence)])
        }
        let tail = try store.fetchHistory(descriptor)
        try verify(
            tail.map { String($0.token.sequence) } == (try sqlTail()).map { $0[0] } && tail.count == 100,
            "postgres_history_tail_vs_sql", "the store's tail and the query's rows differ")
        let (storeTail, sqlTailTiming) = try Measure.pair(
            repetitions: sizes.repetitions * 4,
            candidate: { for _ in 0..<10 { _ = try store.fetchHistory(descriptor) } },
            baseline: { for _ in 0..<10 { _ = try sqlTail() } })
        report.ratio(
            "postgres_history_tail_vs_sql", candidate: storeTail, baseline: sqlTailTiming, atLeast: 0.8,
            candidateLabel: "10 fetchHistory after a token (100 transactions of 10 changes)",
            baselineLabel: "10 indexed SELECTs of the same history rows (text, undecoded)")
    }
}
