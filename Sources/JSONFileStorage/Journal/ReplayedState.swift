import DataStoreCore
import DataStoreKit
import Foundation

/// The store's state as replayed from its files: rows, retained history and counters. Applying a record
/// here is the one place where journal contents become state, for opening, catching up and saving alike.
struct ReplayedState: Sendable {
    /// The format this version writes (Docs/JSONFileFormat.md): 3, free space after the journal's records and
    /// a change count in the lock file; 2, history in segment files listed by the snapshot; 1, history inside
    /// the snapshot. Stores in formats 1 and 2 are still read.
    static let formatVersion = 3

    let storeIdentifier: String
    /// The schema this instance enforces: the configuration's, or the one it migrated the store to.
    var enforced: Schema? { didSet { schemaConflict = Self.conflict(enforced, recorded) } }
    /// The schema the files say the rows are in (`nil` in a journal from before schemas were recorded).
    var recorded: Schema? { didSet { schemaConflict = Self.conflict(enforced, recorded) } }
    /// Why this instance must not read or write: another process migrated the store to a layout other than
    /// the one this instance enforces. `nil` when they agree. Kept up to date as the schemas change, since
    /// every read and save checks it.
    private(set) var schemaConflict: String?
    /// The number of schema changes folded in; schema records up to it are skipped on replay.
    var schemaGeneration = 0
    var table: SnapshotTable
    var epoch: UUID
    /// Where the retained history is: files and a sparse index, not the transactions.
    var history = HistoryIndex()
    var latestSequence: Int64 = 0
    var oldestValidSequence: Int64 = 0
    var nextChangeIdentifier: Int64 = 1
    var lastTimestamp = Date.distantPast
    /// The size of the snapshot file these rows were loaded from or last checkpointed to (0: none): the
    /// automatic checkpoint lets the journal grow in proportion to it.
    var snapshotBytes: Int64 = 0

    init(storeIdentifier: String, schema: Schema?, epoch: UUID) {
        self.storeIdentifier = storeIdentifier
        self.enforced = schema
        self.epoch = epoch
        self.table = SnapshotTable(storeIdentifier: storeIdentifier, schema: schema)
    }

    /// The schema rows are indexed and saves are checked under.
    var effectiveSchema: Schema? { enforced ?? recorded }

    private static func conflict(_ enforced: Schema?, _ recorded: Schema?) -> String? {
        guard let enforced, let recorded, enforced.storageLayout != recorded.storageLayout else { return nil }
        let version = recorded.version.map { " (version \($0))" } ?? ""
        return "its rows are now in a different schema\(version) than this instance was opened with"
    }

    /// Takes the schema a header or snapshot records, if it is newer than what is folded in.
    mutating func adopt(_ schema: Schema?, generation: Int?) {
        guard let schema, (generation ?? 0) >= schemaGeneration else { return }
        recorded = schema
        schemaGeneration = generation ?? 0
        if table.count == 0 {
            table = SnapshotTable(storeIdentifier: storeIdentifier, schema: effectiveSchema)
        }
    }

    /// Folds in a compacted snapshot.
    mutating func apply(_ snapshot: JournalRecord.SnapshotRecord) {
        adopt(snapshot.schema, generation: snapshot.schemaGeneration)
        for row in snapshot.rows {
            table.apply(
                PlannedChange(kind: .insert, identifier: row.persistentIdentifier, values: row.values))
        }
        history = HistoryIndex(recentChangeLimit: history.recentChangeLimit)
        history.latest = snapshot.sequence
        if let segments = snapshot.segments {
            history.segments = segments
            history.forgottenThrough = snapshot.forgottenThrough ?? 0
            history.forgotten = Set(snapshot.forgotten ?? [])
        } else {
            // Format 1: the retained transactions are listed; every other sequence is forgotten.
            history.inline = snapshot.history
            history.forgottenThrough = (snapshot.history.first?.sequence ?? snapshot.sequence + 1) - 1
            let kept = Set(snapshot.history.map(\.sequence))
            history.forgotten = Set(
                (history.forgottenThrough + 1..<snapshot.sequence + 1).filter { !kept.contains($0) })
        }
        latestSequence = snapshot.sequence
        nextChangeIdentifier = snapshot.nextChange
        oldestValidSequence = snapshot.oldestValid
        lastTimestamp = snapshot.lastTimestamp
    }

    /// Applies one journal record read at `offset` of `path`. Transactions already folded into the snapshot
    /// are skipped; a gap in sequence numbers is corruption.
    mutating func apply(_ record: JournalRecord, offset: Int64, path: String) throws(DataStoreError) {
        switch record {
        case .transaction(let body):
            guard body.sequence > latestSequence else { return }
            guard body.sequence == latestSequence + 1 else {
                throw .corruptStoreFile(
                    path: path, offset: offset,
                    reason: "transaction \(body.sequence) follows \(latestSequence): history has a gap")
            }
            apply(body, at: offset)
        case .forget(let body):
            history.forget(body.sequences)
            oldestValidSequence = max(oldestValidSequence, body.oldestValid)
        case .schema(let body):
            guard body.generation > schemaGeneration else { return }  // already in the snapshot
            if let transaction = body.transaction, transaction.sequence > latestSequence {
                guard transaction.sequence == latestSequence + 1 else {
                    throw .corruptStoreFile(
                        path: path, offset: offset,
                        reason:
                            "transaction \(transaction.sequence) follows \(latestSequence): history has a gap"
                    )
                }
                apply(transaction, at: offset)
            }
            apply(body)
        case .header, .snapshot, .rows:
            throw .corruptStoreFile(
                path: path, offset: offset, reason: "unexpected \(record) record inside the journal")
        }
    }

    /// Moves the rows to a recorded schema: the one place a migration becomes state.
    mutating func apply(_ body: JournalRecord.SchemaRecord) {
        recorded = body.schema
        schemaGeneration = body.generation
        // Rebuilding the table is O(rows): only when rows change or the indexes it keeps do.
        if !body.upgrade.isEmpty || table.schema?.storageLayout != effectiveSchema?.storageLayout {
            table = table.upgraded(body.upgrade, schema: effectiveSchema)
        }
    }

    /// Applies a committed transaction whose record is at `offset` of the journal: the rows change and
    /// history grows.
    mutating func apply(_ body: JournalRecord.TransactionRecord, at offset: Int64) {
        table.apply(body.changes)
        history.journal.append(
            sequence: body.sequence, timestamp: body.timestamp, offset: offset)
        if history.caches(changeCount: body.changes.count) {
            history.remember(transaction(body))
        } else {
            history.skipRecent()
        }
        history.latest = body.sequence
        latestSequence = body.sequence
        nextChangeIdentifier = body.firstChange + Int64(body.changes.count)
        lastTimestamp = max(lastTimestamp, body.timestamp)
    }

    func transaction(_ body: JournalRecord.TransactionRecord) -> JSONFileHistoryTransaction {
        Self.transaction(body, storeIdentifier: storeIdentifier, epoch: epoch)
    }

    /// A transaction record as the history transaction it is.
    static func transaction(_ body: JournalRecord.TransactionRecord, storeIdentifier: String, epoch: UUID)
        -> JSONFileHistoryTransaction
    {
        let changes = body.changes.enumerated().map { index, change in
            JSONFileHistoryChange(
                change, changeIdentifier: body.firstChange + Int64(index),
                transactionIdentifier: body.sequence)
        }
        return JSONFileHistoryTransaction(
            timestamp: body.timestamp, changes: changes,
            token: JSONFileHistoryToken(
                storeIdentifier: storeIdentifier, epoch: epoch, sequence: body.sequence),
            author: body.author, bundleIdentifier: body.bundle, processIdentifier: body.process)
    }

    /// The record of the compacted state, with history in `segments` (a checkpoint writes them first).
    func snapshotRecord(segments: [HistoryIndex.File]) -> JournalRecord.SnapshotRecord {
        // In identifier order, so that the file is the same for the same rows; the table keeps that order.
        let rows = table.rowsInIdentifierOrder
        return JournalRecord.SnapshotRecord(
            format: Self.formatVersion, store: storeIdentifier, epoch: epoch, sequence: latestSequence,
            nextChange: nextChangeIdentifier, oldestValid: oldestValidSequence, lastTimestamp: lastTimestamp,
            rows: rows,
            history: [], schema: recorded, schemaGeneration: schemaGeneration, segments: segments,
            forgottenThrough: history.forgottenThrough, forgotten: history.forgotten.sorted())
    }
}
