import DataStoreCore
import Foundation
import Testing

@testable import DataStoreKit

/// A large transaction's changes are written in parts on several cores and joined: the bytes must be exactly
/// those one writer writes, whatever the cores, the kinds of change and the entities along the way (each part
/// spells its first identifier's entity afresh).
@Suite struct ParallelChangeCodecTests {
    /// `count` changes of every kind, over two entities and two stores, some with tombstones and previous
    /// values, and strings that need escaping.
    static func changes(_ count: Int) -> [PlannedChange] {
        (0..<count).map { index in
            let entity = index % 700 < 350 ? "Note" : "Tag \"quoted\""
            let id = PersistentIdentifier(
                storeIdentifier: index % 5_000 < 4_000 ? "notes" : "other", entityName: entity,
                primaryKey: "k\(index)")
            switch index % 3 {
            case 0:
                return PlannedChange(
                    kind: .insert, identifier: id,
                    values: ["title": .string("note \(index)\n"), "rank": .integer(Int64(index))],
                    updatedAttributes: ["rank", "title"])
            case 1:
                return PlannedChange(
                    kind: .update, identifier: id, values: ["rank": .integer(-Int64(index))],
                    updatedAttributes: ["rank"], previousValues: ["rank": .integer(Int64(index))])
            default:
                return PlannedChange(
                    kind: .delete, identifier: id, tombstone: ["title": .string("gone \(index)")])
            }
        }
    }

    static func bytes(_ changes: [PlannedChange], cores: Int) -> [UInt8] {
        var writer = JSONWriter()
        PlannedChangeCodec.write(changes, into: &writer, cores: cores)
        return writer.bytes
    }

    @Test(arguments: [2, 3, 8])
    func thePartsJoinedAreTheBytesOneWriterWrites(cores: Int) throws {
        let changes = Self.changes(3 * PlannedChangeCodec.parallelChunkLength * 4 + 7)
        let whole = Self.bytes(changes, cores: 1)
        let parts = Self.bytes(changes, cores: cores)
        // Compared as one Boolean: a failure printing both arrays would print megabytes.
        let same = parts == whole
        #expect(
            same, "the parts' bytes differ from the whole's (\(parts.count) against \(whole.count) bytes)")
        #expect(try PlannedChangeCodec.decode(JSONParser.parse(Data(whole))) == changes)
    }

    @Test func fewChangesAreWrittenByOneWriter() {
        #expect(
            ParallelChunks.ranges(
                of: 0..<100, minimumChunkLength: PlannedChangeCodec.parallelChunkLength, cores: 8)
                == [0..<100])
        let same = Self.bytes(Self.changes(100), cores: 8) == Self.bytes(Self.changes(100), cores: 1)
        #expect(same)
    }

    @Test func chunksCoverTheIndicesInOrderWithoutOverlap() {
        for (count, cores) in [(10_000, 3), (4_097, 2), (65_536, 7), (5, 2)] {
            let ranges = ParallelChunks.ranges(of: 10..<(10 + count), minimumChunkLength: 2_048, cores: cores)
            #expect(ranges.first?.lowerBound == 10)
            #expect(ranges.last?.upperBound == 10 + count)
            #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
            #expect(ranges.allSatisfy { $0.count >= min(count, 2_048) })
            #expect(ranges.count <= cores)
        }
    }

    @Test func resultsComeInChunkOrder() {
        #expect(ParallelChunks.map(0) { $0 }.isEmpty)
        #expect(ParallelChunks.map(1) { $0 * 2 } == [0])
        #expect(ParallelChunks.map(100) { "chunk \($0)" } == (0..<100).map { "chunk \($0)" })
    }
}
