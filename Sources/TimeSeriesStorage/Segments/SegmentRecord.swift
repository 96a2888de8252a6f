import DataStoreCore
import DataStoreKit
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

    init(from decoder: any Decoder) throws {
        let record = try TaggedRecord.Decoded(from: decoder)
        switch record.type {
        case "header": self = .header(try record.body(Header.self))
        case "transaction": self = .transaction(try record.body(Commit.self))
        default: throw record.unknownType()
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .header(let body): try TaggedRecord.encode(type: "header", body: body, to: encoder)
        case .transaction(let body): try TaggedRecord.encode(type: "transaction", body: body, to: encoder)
        }
    }
}
