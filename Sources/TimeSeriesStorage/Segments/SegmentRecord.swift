import DataStoreCore
import Foundation

/// The records of segment files (`Docs/TimeSeries.md` documents them).
enum SegmentRecord: Codable, Sendable {
    /// The first line of every segment.
    case header(Header)
    /// One committed transaction.
    case transaction(Commit)

    struct Header: Codable, Sendable {
        var format: Int
        var store: String
        var epoch: UUID
        /// The start of the time partition the segment was opened for.
        var partition: Date
    }

    struct Sample: Codable, Sendable {
        var entity: String
        var key: String
        var values: [String: SnapshotValue]
    }

    struct Commit: Codable, Sendable {
        var sequence: Int64
        var timestamp: Date
        var author: String?
        var bundle: String
        var process: String
        var firstChange: Int64
        /// The earliest and latest sample time in `samples`, so readers can skip the record.
        var earliest: Date
        var latest: Date
        var samples: [Sample]
    }

    private enum Key: String, CodingKey { case type, body }
    private enum Kind: String, Codable { case header, transaction }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        switch try container.decode(Kind.self, forKey: .type) {
        case .header: self = .header(try container.decode(Header.self, forKey: .body))
        case .transaction: self = .transaction(try container.decode(Commit.self, forKey: .body))
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
        }
    }
}
