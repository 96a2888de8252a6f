import DataStoreCore
import Foundation

/// A transaction as the tool prints it, whatever the backend.
struct TransactionRow: Codable, Sendable {
    struct Change: Codable, Sendable {
        var kind: String
        var entity: String
        var identifier: String
        var updatedAttributes: [String]
        var tombstone: [String: SnapshotValue]?
        /// The values the change wrote, where the store records them (shown with `--values`).
        var values: [String: SnapshotValue]?
        /// The values an update or delete replaced, of the attributes marked `.preservePreviousValue` (shown
        /// with `--values`).
        var previousValues: [String: SnapshotValue]?
    }

    var sequence: Int64
    var timestamp: Date
    var author: String?
    var bundle: String
    var process: String
    var token: String
    var changes: [Change]

    init<Transaction: HistoryTransaction>(_ transaction: Transaction)
    where Transaction.Token: StoreHistoryToken {
        sequence = transaction.token.sequence
        timestamp = transaction.timestamp
        author = transaction.author
        bundle = transaction.bundleIdentifier
        process = transaction.processIdentifier
        token = TokenText.json(transaction.token)
        changes = transaction.changes.map { change in
            Change(
                kind: change.kind.rawValue, entity: change.changedPersistentIdentifier.entityName,
                identifier: change.changedPersistentIdentifier.primaryKey,
                updatedAttributes: change.updatedAttributes,
                tombstone: change.tombstone,
                values: (change as? any ValueRecordingHistoryChange)?.values,
                previousValues: change.previousValues)
        }
    }

    /// The row without the written and previous values: what `history` prints without `--values`.
    var withoutValues: TransactionRow {
        var row = self
        for index in row.changes.indices {
            row.changes[index].values = nil
            row.changes[index].previousValues = nil
        }
        return row
    }
}

/// Token JSON for printing: compact, keys sorted.
enum TokenText {
    static func json(_ token: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(token)).map { String(decoding: $0, as: UTF8.self) } ?? "?"
    }
}
