import DataStoreCore
import Foundation
import JSONFileStorage

/// Scenario 4: the JSON file store against SQLite in WAL mode with `synchronous=FULL`, holding the same models
/// in a table and history in tables indexed by sequence.
enum SQLiteScenario {
    static func run(_ report: Report, _ sizes: Sizes) throws {
        let scratch = try Scratch("sqlite")
        let models = sizes.jsonModels
        let transactions = sizes.historyTransactions / 10
        let json = try JSONFileDataStore(
            .init(name: "bench", schema: Note.schema, directory: scratch.path("json"), durability: .relaxed))
        let sqlite = try SQLiteDatabase(path: scratch.path("bench.sqlite").path)
        try sqlite.execute(
            """
            CREATE TABLE models (key TEXT PRIMARY KEY, title TEXT, body TEXT, rank INTEGER, timestamp REAL);
            CREATE TABLE transactions (seq INTEGER PRIMARY KEY, timestamp REAL, author TEXT);
            CREATE TABLE changes (seq INTEGER, position INTEGER, key TEXT, kind TEXT, updated TEXT, PRIMARY KEY (seq, position));
            """)
        let upsertModel = try sqlite.prepare(
            "INSERT INTO models VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT(key) DO UPDATE SET body = ?3")
        let insertTransaction = try sqlite.prepare("INSERT INTO transactions VALUES (?1, ?2, ?3)")
        let insertChange = try sqlite.prepare("INSERT INTO changes VALUES (?1, ?2, ?3, ?4, ?5)")
        var sequence: Int64 = 0

        /// One transaction in SQLite: the models and the history rows, as the JSON store writes them.
        func sqliteSave(_ snapshots: [DataStoreSnapshot], kind: String) throws {
            try sqlite.execute("BEGIN")
            sequence += 1
            insertTransaction.reset()
            insertTransaction.bind(1, sequence)
            insertTransaction.bind(2, Date().timeIntervalSinceReferenceDate)
            insertTransaction.bind(3, "bench")
            _ = try insertTransaction.step()
            for (position, snapshot) in snapshots.enumerated() {
                upsertModel.reset()
                upsertModel.bind(1, snapshot.persistentIdentifier.primaryKey)
                if case .string(let title) = snapshot[attribute: "title"] { upsertModel.bind(2, title) }
                if case .string(let body) = snapshot[attribute: "body"] { upsertModel.bind(3, body) }
                if case .integer(let rank) = snapshot[attribute: "rank"] { upsertModel.bind(4, rank) }
                upsertModel.bind(5, 0.0)
                _ = try upsertModel.step()
                insertChange.reset()
                insertChange.bind(1, sequence)
                insertChange.bind(2, Int64(position))
                insertChange.bind(3, snapshot.persistentIdentifier.primaryKey)
                insertChange.bind(4, kind)
                insertChange.bind(5, kind == "update" ? "body" : "")
                _ = try insertChange.step()
            }
            try sqlite.execute("COMMIT")
        }

        // The same history in both: model inserts, then one-model updates up to `transactions`.
        for first in stride(from: 0, to: models, by: 1_000) {
            let batch = (first..<min(first + 1_000, models)).map { note($0, store: "bench") }
            _ = try json.save(DataStoreSaveChangesRequest(inserted: batch))
            try sqliteSave(batch, kind: "insert")
        }
        var round = 0
        while sequence < Int64(transactions) {
            round += 1
            let changed = [note(round % models, store: "bench", body: "b\(round)")]
            _ = try json.save(DataStoreSaveChangesRequest(updated: changed))
            try sqliteSave(changed, kind: "update")
        }
        out("sqlite: \(models) models, \(sequence) transactions in each")

        // 4a. Durable saves of one 10-change transaction. Reopen the JSON store with full durability.
        let durable = try JSONFileDataStore(
            .init(name: "bench", schema: Note.schema, directory: scratch.path("json")))
        func tenChanged() -> [DataStoreSnapshot] {
            round += 1
            return (0..<10).map { note(($0 * 131 + round) % models, store: "bench", body: "r\(round)") }
        }
        // Both stores receive the same twenty transactions in every repetition.
        let (jsonSave, sqliteTransaction) = try Measure.pair(
            repetitions: sizes.repetitions, input: { (0..<20).map { _ in tenChanged() } },
            candidate: { batches in
                for batch in batches { _ = try durable.save(DataStoreSaveChangesRequest(updated: batch)) }
            },
            baseline: { batches in for batch in batches { try sqliteSave(batch, kind: "update") } })
        report.ratio(
            "json_vs_sqlite_durable_saves", candidate: jsonSave, baseline: sqliteTransaction, atLeast: 1.25,
            candidateLabel: "20 durable 10-change saves",
            baselineLabel: "20 SQLite transactions (WAL, synchronous=FULL)")

        // 4b. The 100 transactions after a token near the end.
        let all = try durable.fetchHistory(HistoryDescriptor())
        let token = all[all.count - 101].token
        let after = token.sequence
        let descriptor = HistoryDescriptor<JSONFileHistoryTransaction>(
            predicate: #Predicate { $0.token > token })
        let query = try sqlite.prepare(
            """
            SELECT t.seq, t.timestamp, t.author, c.position, c.key, c.kind, c.updated
            FROM transactions t JOIN changes c ON c.seq = t.seq WHERE t.seq > ?1 ORDER BY t.seq, c.position
            """)
        struct Row: Equatable {
            var sequence: Int64
            var keys: [String]
        }
        func sqliteTail() throws -> [Row] {
            query.reset()
            query.bind(1, after)
            var rows: [Row] = []
            while try query.step() {
                let sequence = query.int64(0)
                _ = (query.double(1), query.text(2), query.int64(3), query.text(5), query.text(6))
                if rows.last?.sequence != sequence { rows.append(Row(sequence: sequence, keys: [])) }
                rows[rows.count - 1].keys.append(query.text(4))
            }
            return rows
        }
        let jsonRows = try durable.fetchHistory(descriptor).map {
            Row(sequence: $0.token.sequence, keys: $0.changes.map(\.changedPersistentIdentifier.primaryKey))
        }
        try verify(jsonRows == (try sqliteTail()), "history_tail_vs_sqlite", "the two stores' tails differ")
        let (jsonTail, sqliteTailTiming) = try Measure.pair(
            repetitions: sizes.repetitions,
            candidate: { for _ in 0..<100 { _ = try durable.fetchHistory(descriptor) } },
            baseline: { for _ in 0..<100 { _ = try sqliteTail() } })
        report.ratio(
            "history_tail_vs_sqlite", candidate: jsonTail, baseline: sqliteTailTiming, atLeast: 1.0,
            candidateLabel: "100 tail fetches", baselineLabel: "100 indexed SQLite queries")
    }
}
