import DataStoreCore
import DataStoreKit
import Foundation

/// One record of the journal or the snapshot file. The formats are documented byte by byte in
/// `Docs/JSONFileFormat.md`; the `type` key tells them apart.
enum JournalRecord: Codable, Sendable {
    /// The first record of every journal: format version, store name and epoch.
    case header(Header)
    /// One committed save.
    case transaction(TransactionRecord)
    /// `deleteHistory`: these transactions are gone, and tokens before `oldestValid` expire.
    case forget(ForgetRecord)
    /// The compacted state, alone in `snapshot.json`.
    case snapshot(SnapshotRecord)
    /// Format 2: a run of the snapshot's rows, in `snapshot.json` after the `snapshot` record.
    case rows(RowsRecord)
    /// A migration: the store's new schema, the upgrade its rows went through, and the transaction that came
    /// with it, committed together.
    case schema(SchemaRecord)

    struct Header: Codable, Sendable {
        var format: Int
        var store: String
        var epoch: UUID
        var created: Date
        /// The schema the store holds (absent in journals written before schemas were recorded).
        var schema: Schema?
        /// How many schema changes the store has been through; schema records up to it are already in.
        var schemaGeneration: Int?
    }

    struct SchemaRecord: Codable, Sendable {
        /// One more than the previous schema record's (or the header's) generation.
        var generation: Int
        var schema: Schema
        var upgrade: SchemaUpgrade
        /// The changes a custom migration stage made, under the previous schema; applied before the upgrade.
        var transaction: TransactionRecord?
    }

    struct TransactionRecord: Codable, Sendable {
        var sequence: Int64
        var timestamp: Date
        var author: String?
        var bundle: String
        var process: String
        var firstChange: Int64
        var changes: [PlannedChange]
        /// The journal offset where the append that wrote this record began, when that append wrote several
        /// records (a group commit): a power loss that keeps some of its pages and loses others leaves whole
        /// records after a hole, and this says they belong to the unfinished write (a torn tail), not to a later
        /// one (damage). Absent for a record written alone, and in journals written before it existed.
        var write: Int64? = nil
    }

    struct RowsRecord: Codable, Sendable {
        var rows: [DataStoreSnapshot]
    }

    struct ForgetRecord: Codable, Sendable {
        var sequences: [Int64]
        var oldestValid: Int64
    }

    struct SnapshotRecord: Codable, Sendable {
        var format: Int
        var store: String
        var epoch: UUID
        /// The last transaction folded in; journal transactions up to it are already included.
        var sequence: Int64
        var nextChange: Int64
        var oldestValid: Int64
        var lastTimestamp: Date
        /// Format 1: every row. Format 2 writes none here; `rows` records follow the snapshot record.
        var rows: [DataStoreSnapshot]
        /// Format 1: the retained transactions themselves. Format 2 writes none here and lists `segments`.
        var history: [TransactionRecord]
        var schema: Schema?
        var schemaGeneration: Int?
        /// Format 2: the history segments, oldest first, with their sparse indexes.
        var segments: [HistoryIndex.File]?
        /// Format 2: every sequence up to this one is forgotten…
        var forgottenThrough: Int64?
        /// …and these after it.
        var forgotten: [Int64]?
    }

    init(from decoder: any Decoder) throws {
        let record = try TaggedRecord.Decoded(from: decoder)
        switch record.type {
        case "header": self = .header(try record.body(Header.self))
        case "transaction": self = .transaction(try record.body(TransactionRecord.self))
        case "forget": self = .forget(try record.body(ForgetRecord.self))
        case "snapshot": self = .snapshot(try record.body(SnapshotRecord.self))
        case "schema": self = .schema(try record.body(SchemaRecord.self))
        case "rows": self = .rows(try record.body(RowsRecord.self))
        default: throw record.unknownType()
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .header(let body): try TaggedRecord.encode(type: "header", body: body, to: encoder)
        case .transaction(let body): try TaggedRecord.encode(type: "transaction", body: body, to: encoder)
        case .forget(let body): try TaggedRecord.encode(type: "forget", body: body, to: encoder)
        case .snapshot(let body): try TaggedRecord.encode(type: "snapshot", body: body, to: encoder)
        case .schema(let body): try TaggedRecord.encode(type: "schema", body: body, to: encoder)
        case .rows(let body): try TaggedRecord.encode(type: "rows", body: body, to: encoder)
        }
    }
}
