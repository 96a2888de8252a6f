import DataStoreCore
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

    struct Header: Codable, Sendable {
        var format: Int
        var store: String
        var epoch: UUID
        var created: Date
    }

    struct TransactionRecord: Codable, Sendable {
        var sequence: Int64
        var timestamp: Date
        var author: String?
        var bundle: String
        var process: String
        var firstChange: Int64
        var changes: [PlannedChange]
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
        var rows: [DataStoreSnapshot]
        var history: [TransactionRecord]
    }

    private enum Key: String, CodingKey {
        case type, body
    }

    private enum Kind: String, Codable {
        case header, transaction, forget, snapshot
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        switch try container.decode(Kind.self, forKey: .type) {
        case .header: self = .header(try container.decode(Header.self, forKey: .body))
        case .transaction: self = .transaction(try container.decode(TransactionRecord.self, forKey: .body))
        case .forget: self = .forget(try container.decode(ForgetRecord.self, forKey: .body))
        case .snapshot: self = .snapshot(try container.decode(SnapshotRecord.self, forKey: .body))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .header(let body):
            try container.encode(Kind.header, forKey: .type)
            try container.encode(body, forKey: .body)
        case .transaction(let body):
            try container.encode(Kind.transaction, forKey: .type)
            try container.encode(body, forKey: .body)
        case .forget(let body):
            try container.encode(Kind.forget, forKey: .type)
            try container.encode(body, forKey: .body)
        case .snapshot(let body):
            try container.encode(Kind.snapshot, forKey: .type)
            try container.encode(body, forKey: .body)
        }
    }
}
