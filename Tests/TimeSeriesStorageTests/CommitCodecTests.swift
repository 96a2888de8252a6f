import DataStoreCore
import Foundation
import Testing

@testable import TimeSeriesStorage

/// Segment commits: the fast codec and Foundation's Codable write the same bytes and read each other's.
@Suite struct CommitCodecTests {
    @Test func fastAndFoundationAgree() throws {
        let commit = SegmentRecord.Commit(
            sequence: 9, timestamp: Date(timeIntervalSinceReferenceDate: 816_000_000.25), author: nil,
            bundle: "sensor-log",
            process: "77", firstChange: 100, earliest: Date(timeIntervalSinceReferenceDate: 10),
            latest: Date(timeIntervalSinceReferenceDate: 20.5),
            samples: [
                .init(
                    entity: "Reading", key: "r1",
                    values: [
                        "celsius": .double(21.5),
                        "timestamp": .date(Date(timeIntervalSinceReferenceDate: 10)),
                    ]),
                .init(
                    entity: "Reading", key: "r/2", values: ["celsius": .double(-0.0), "sensor": .string("é")]),
            ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let viaFoundation = try encoder.encode(SegmentRecord.transaction(commit))
        let fast = CommitCodec.encode(commit)
        #expect(String(decoding: fast, as: UTF8.self) == String(decoding: viaFoundation, as: UTF8.self))
        let parsed = try #require(try CommitCodec.decode(viaFoundation))
        #expect(parsed.samples.map(\.values) == commit.samples.map(\.values))
        #expect(parsed.sequence == 9 && parsed.latest == commit.latest && parsed.author == nil)
        guard case .transaction(let decoded) = try JSONDecoder().decode(SegmentRecord.self, from: fast) else {
            Issue.record("not a transaction")
            return
        }
        #expect(decoded.samples.map(\.key) == ["r1", "r/2"])
    }
}
