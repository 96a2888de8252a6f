import DataStoreCore
import Foundation

/// The store's state as replayed from its files: rows, retained history and counters. Applying a record
/// here is the one place where journal contents become state, for opening, catching up and saving alike.
struct ReplayedState: Sendable {
    static let formatVersion = 1

    let storeIdentifier: String
    /// The schema this instance enforces: the configuration's, or the one it migrated the store to.
    var enforced: Schema?
    /// The schema the files say the rows are in (`nil` in a journal from before schemas were recorded).
    var recorded: Schema?
    /// The number of schema changes folded in; schema records up to it are skipped on replay.
    var schemaGeneration = 0
    var table: SnapshotTable
    var epoch: UUID
    var history: [JSONFileHistoryTransaction] = []
    var latestSequence: Int64 = 0
    var oldestValidSequence: Int64 = 0
    var nextChangeIdentifier: Int64 = 1
    var lastTimestamp = Date.distantPast

    init(storeIdentifier: String, schema: Schema?, epoch: UUID) {
        self.storeIdentifier = storeIdentifier
        self.enforced = schema
        self.epoch = epoch
        self.table = SnapshotTable(storeIdentifier: storeIdentifier, schema: schema)
    }

    /// The schema rows are indexed and saves are checked under.
    var effectiveSchema: Schema? { enforced ?? recorded }

    /// Why this instance must not read or write: another process migrated the store to a layout other than
    /// the one this instance enforces. `nil` when they agree.
    var schemaConflict: String? {
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
        history = snapshot.history.map(transaction)
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
            apply(body)
        case .forget(let body):
            let sequences = Set(body.sequences)
            history.removeAll { sequences.contains($0.token.sequence) }
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
                apply(transaction)
            }
            apply(body)
        case .header, .snapshot:
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

    /// Applies a committed transaction: the rows change and history grows.
    mutating func apply(_ body: JournalRecord.TransactionRecord) {
        for change in body.changes {
            table.apply(change)
        }
        history.append(transaction(body))
        latestSequence = body.sequence
        nextChangeIdentifier = body.firstChange + Int64(body.changes.count)
        lastTimestamp = max(lastTimestamp, body.timestamp)
    }

    func transaction(_ body: JournalRecord.TransactionRecord) -> JSONFileHistoryTransaction {
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

    /// The record of the compacted state.
    var snapshotRecord: JournalRecord.SnapshotRecord {
        let rows = Array(table.countsByEntity.keys).flatMap { table.rows(of: $0) }
        return JournalRecord.SnapshotRecord(
            format: Self.formatVersion, store: storeIdentifier, epoch: epoch, sequence: latestSequence,
            nextChange: nextChangeIdentifier, oldestValid: oldestValidSequence, lastTimestamp: lastTimestamp,
            rows: rows.sorted { $0.persistentIdentifier < $1.persistentIdentifier },
            history: history.map(record), schema: recorded, schemaGeneration: schemaGeneration)
    }

    /// A retained transaction as the record that writes it.
    func record(of transaction: JSONFileHistoryTransaction) -> JournalRecord.TransactionRecord {
        JournalRecord.TransactionRecord(
            sequence: transaction.token.sequence, timestamp: transaction.timestamp,
            author: transaction.author,
            bundle: transaction.bundleIdentifier, process: transaction.processIdentifier,
            firstChange: transaction.changes.first?.changeIdentifier ?? nextChangeIdentifier,
            changes: transaction.changes.map {
                PlannedChange(
                    kind: $0.kind, identifier: $0.changedPersistentIdentifier, values: $0.values,
                    updatedAttributes: $0.updatedAttributes, tombstone: $0.tombstone)
            })
    }
}
