import DataStoreCore
import Foundation

/// The store's state as replayed from its files: rows, retained history and counters. Applying a record
/// here is the one place where journal contents become state, for opening, catching up and saving alike.
struct ReplayedState: Sendable {
    static let formatVersion = 1

    let storeIdentifier: String
    let schema: Schema?
    var table: SnapshotTable
    var epoch: UUID
    var history: [JSONFileHistoryTransaction] = []
    var latestSequence: Int64 = 0
    var oldestValidSequence: Int64 = 0
    var nextChangeIdentifier: Int64 = 1
    var lastTimestamp = Date.distantPast

    init(storeIdentifier: String, schema: Schema?, epoch: UUID) {
        self.storeIdentifier = storeIdentifier
        self.schema = schema
        self.epoch = epoch
        self.table = SnapshotTable(storeIdentifier: storeIdentifier, schema: schema)
    }

    /// Folds in a compacted snapshot.
    mutating func apply(_ snapshot: JournalRecord.SnapshotRecord) {
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
        case .header, .snapshot:
            throw .corruptStoreFile(
                path: path, offset: offset, reason: "unexpected \(record) record inside the journal")
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
        let rows = (table.schema?.entities.map(\.name) ?? Array(table.countsByEntity.keys)).flatMap {
            table.rows(of: $0)
        }
        return JournalRecord.SnapshotRecord(
            format: Self.formatVersion, store: storeIdentifier, epoch: epoch, sequence: latestSequence,
            nextChange: nextChangeIdentifier, oldestValid: oldestValidSequence, lastTimestamp: lastTimestamp,
            rows: rows.sorted { $0.persistentIdentifier < $1.persistentIdentifier },
            history: history.map { transaction in
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
            })
    }
}
