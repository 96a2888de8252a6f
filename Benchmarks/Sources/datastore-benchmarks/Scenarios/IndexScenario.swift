import DataStoreCore
import Foundation
import InMemoryStorage
import JSONFileStorage

/// An equality fetch answered from an index (`title` is `.unique`, so indexed) against the same fetch over a
/// store whose schema has no index, so every model is examined.
enum IndexScenario {
    static func run(_ report: Report, _ sizes: Sizes) throws {
        let count = sizes.jsonModels
        let snapshots = (0..<count).map { note($0, store: "bench") }
        let indexed = try InMemoryDataStore(.init(name: "bench", schema: Note.schema))
        var plain = Note.schema
        plain.entities[0].attributes = plain.entities[0].attributes.map { Schema.Attribute(name: $0.name) }
        let scanned = try InMemoryDataStore(.init(name: "bench", schema: plain))
        _ = try indexed.save(DataStoreSaveChangesRequest(inserted: snapshots))
        _ = try scanned.save(DataStoreSaveChangesRequest(inserted: snapshots))

        let wanted = "note \(count / 2)"
        let request = DataStoreFetchRequest(
            descriptor: FetchDescriptor<Note>(predicate: #Predicate { $0.title == wanted }))
        let fromIndex = try indexed.fetch(request).snapshots
        let fromScan = try scanned.fetch(request).snapshots
        try verify(fromIndex == fromScan && fromIndex.count == 1, "indexed_fetch", "the same single match")
        let before = (indexed.modelsExamined, scanned.modelsExamined)
        // One lookup each: a full scan of 100,000 models takes about a second.
        let (candidate, baseline) = try Measure.pair(
            repetitions: sizes.repetitions,
            candidate: { _ = try indexed.fetch(request) },
            baseline: { _ = try scanned.fetch(request) })
        let speedup = baseline.median / candidate.median
        let examined = Double(indexed.modelsExamined - before.0) / Double(scanned.modelsExamined - before.1)
        report.metric(
            "indexed_fetch_vs_scan", speedup, "x", target: ">= 100", met: speedup >= 100,
            detail: "equality on an indexed attribute over \(count) models, one lookup: median "
                + "\(Report.time(candidate.median)) against \(Report.time(baseline.median)) for a full scan; "
                + "models examined: \(String(format: "%.5f", examined))× the scan's")

        try againstSQLite(report, sizes, snapshots)
    }

    /// The same lookup by `title` in the JSON file store (a durable store, like SQLite) and in SQLite with an
    /// index on the column, each returning the whole row: 1,000 lookups of different titles a side.
    static func againstSQLite(_ report: Report, _ sizes: Sizes, _ snapshots: [DataStoreSnapshot]) throws {
        let scratch = try Scratch("index")
        let json = try JSONFileDataStore(
            .init(name: "bench", schema: Note.schema, directory: scratch.path("json"), durability: .relaxed))
        _ = try json.save(DataStoreSaveChangesRequest(inserted: snapshots))
        let sqlite = try SQLiteDatabase(path: scratch.path("index.sqlite").path)
        try sqlite.execute(
            "CREATE TABLE notes (key TEXT PRIMARY KEY, title TEXT, body TEXT, rank INTEGER, timestamp REAL)")
        try sqlite.execute("BEGIN")
        let insert = try sqlite.prepare("INSERT INTO notes VALUES (?1, ?2, ?3, ?4, ?5)")
        for snapshot in snapshots {
            insert.reset()
            insert.bind(1, snapshot.persistentIdentifier.primaryKey)
            if case .string(let title) = snapshot[attribute: "title"] { insert.bind(2, title) }
            if case .string(let body) = snapshot[attribute: "body"] { insert.bind(3, body) }
            if case .integer(let rank) = snapshot[attribute: "rank"] { insert.bind(4, rank) }
            if case .date(let date) = snapshot[attribute: "timestamp"] {
                insert.bind(5, date.timeIntervalSinceReferenceDate)
            }
            _ = try insert.step()
        }
        try sqlite.execute("COMMIT")
        try sqlite.execute("CREATE INDEX notes_title ON notes (title)")
        let select = try sqlite.prepare(
            "SELECT key, title, body, rank, timestamp FROM notes WHERE title = ?1")

        let titles = (0..<1_000).map { "note \(($0 * 7_919) % snapshots.count)" }
        func fromJSON(_ title: String) throws -> [String] {
            try json.fetch(
                DataStoreFetchRequest(
                    descriptor: FetchDescriptor<Note>(predicate: #Predicate { $0.title == title }))
            ).snapshots.map(\.persistentIdentifier.primaryKey)
        }
        func fromSQLite(_ title: String) throws -> [String] {
            select.reset()
            select.bind(1, title)
            var keys: [String] = []
            while try select.step() {
                keys.append(select.text(0))
                _ = (select.text(1), select.text(2), select.int64(3), select.double(4))
            }
            return keys
        }
        for title in titles.prefix(20) {
            try verify(
                try fromJSON(title) == (try fromSQLite(title)) && (try fromJSON(title)).count == 1,
                "indexed_fetch_vs_sqlite", "the stores disagree on \(title)")
        }
        let examinedBefore = json.statistics.modelsExamined
        let (candidate, baseline) = try Measure.pair(
            repetitions: sizes.repetitions,
            candidate: { for title in titles { _ = try fromJSON(title) } },
            baseline: { for title in titles { _ = try fromSQLite(title) } })
        let examined = json.statistics.modelsExamined - examinedBefore
        try verify(
            examined == titles.count * sizes.repetitions, "indexed_fetch_vs_sqlite",
            "the JSON store examined \(examined) models, not one per lookup")
        report.ratio(
            "indexed_fetch_vs_sqlite", candidate: candidate, baseline: baseline, atLeast: 1.0,
            candidateLabel: "1,000 JSON file store lookups by an indexed title",
            baselineLabel: "1,000 SQLite lookups by an indexed column")
    }
}
