import DataStoreCore
import DataStoreKit
import Foundation
import Testing

@testable import TimeSeriesStorage

/// A save's samples are checked and encoded in one pass: the record it gives equals Foundation's encoding of
/// the same commit, and every rule the pass enforces still refuses what it refused.
@Suite struct SampleBatchTests {
    static let schema = Schema(entities: [
        Schema.Entity(
            name: "Reading",
            attributes: ["timestamp", "celsius", "sensor", "note", "zone", "Alpha", "a b"].map {
                Schema.Attribute(name: $0)
            })
    ])

    static func rules(schema: Schema?) -> SampleBatch.Rules {
        .init(store: "ts", schema: schema, timestampAttribute: "timestamp")
    }

    static func reading(_ key: String, _ values: [String: SnapshotValue]) -> DataStoreSnapshot {
        DataStoreSnapshot(
            persistentIdentifier: PersistentIdentifier(
                storeIdentifier: "ts", entityName: "Reading", primaryKey: key),
            values: values)
    }

    /// Random samples over the schema's attributes: each holds a random subset, with awkward strings.
    static func randomSamples(
        _ count: Int, from first: Int, using generator: inout SystemRandomNumberGenerator
    )
        -> [DataStoreSnapshot]
    {
        let texts = ["", "plain", "quote \" and \\ slash /", "line\nbreak\ttab", "é ü 漢字", "\u{1}"]
        // A loop over a concrete generator: ThreadSanitizer crashes on an `inout some RandomNumberGenerator`
        // used in a closure.
        var samples: [DataStoreSnapshot] = []
        for index in first..<(first + count) {
            var values: [String: SnapshotValue] = [
                "timestamp": .date(Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(index) * 0.37))
            ]
            for name in ["celsius", "sensor", "note", "zone", "Alpha", "a b"]
            where Bool.random(using: &generator) {
                values[name] =
                    switch Int.random(in: 0..<5, using: &generator) {
                    case 0: .double(Double.random(in: -40...60, using: &generator))
                    case 1: .string(texts.randomElement(using: &generator) ?? "")
                    case 2: .integer(Int64.random(in: .min ... .max, using: &generator))
                    case 3: .null
                    default: .bool(Bool.random(using: &generator))
                    }
            }
            samples.append(reading("r\(index)", values))
        }
        return samples
    }

    /// Small saves are encoded in one pass, large ones in chunks on several cores (1,300 samples make two or
    /// more chunks on a machine with two cores or more).
    @Test(arguments: [true, false], [40, 1_300])
    func batchesEncodeWhatFoundationEncodes(withSchema: Bool, count: Int) throws {
        var generator = SystemRandomNumberGenerator()
        let rules = Self.rules(schema: withSchema ? Self.schema : nil)
        // Two saves merged, as a commit window merges them.
        var batch = try SampleBatch(
            validating: Self.randomSamples(count, from: 0, using: &generator), rules: rules)
        batch.append(contentsOf: try SampleBatch(validating: [], rules: rules))
        batch.append(
            contentsOf: try SampleBatch(
                validating: Self.randomSamples(25, from: count, using: &generator), rules: rules))
        #expect(batch.samples.map(\.key) == (0..<(count + 25)).map { "r\($0)" })
        #expect(batch.earliest == Date(timeIntervalSinceReferenceDate: 800_000_000))
        #expect(batch.latest == Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(count + 24) * 0.37))
        let commit = SegmentRecord.Commit(
            sequence: 3, timestamp: Date(timeIntervalSinceReferenceDate: 816_000_000.5), author: "sync",
            bundle: "b", process: "1", firstChange: 7, earliest: batch.earliest ?? .distantPast,
            latest: batch.latest ?? .distantPast, samples: batch.samples)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let viaFoundation = try encoder.encode(SegmentRecord.transaction(commit))
        // The framed line from the batch (its checksum combined from the chunks') is the line framed from
        // Foundation's bytes.
        let viaBatch = CommitCodec.line(commit, samples: batch)
        let framedFoundation = RecordFraming.frame(viaFoundation)
        #expect(
            String(decoding: viaBatch, as: UTF8.self) == String(decoding: framedFoundation, as: UTF8.self))
        #expect(viaBatch == CommitCodec.line(commit))
        #expect(batch.encodedChecksum == CRC32.checksum(batch.encoded))
    }

    /// The duplicate check: thousands of keys, the same key in two entities (allowed), and one repeat anywhere
    /// in the save (refused).
    @Test func aModelNamedTwiceIsRefusedWhereverItIs() throws {
        let schema = Schema(
            entities: ["Reading", "Event"].map {
                Schema.Entity(name: $0, attributes: [Schema.Attribute(name: "timestamp")])
            })
        let rules = SampleBatch.Rules(store: "ts", schema: schema, timestampAttribute: "timestamp")
        let now = SnapshotValue.date(Date())
        func sample(_ entity: String, _ key: String) -> DataStoreSnapshot {
            DataStoreSnapshot(
                persistentIdentifier: PersistentIdentifier(
                    storeIdentifier: "ts", entityName: entity, primaryKey: key),
                values: ["timestamp": now])
        }
        let distinct = (0..<3_000).flatMap { [sample("Reading", "k\($0)"), sample("Event", "k\($0)")] }
        #expect(try SampleBatch(validating: distinct, rules: rules).samples.count == 6_000)
        for repeated in [0, 1, 2_999, 5_999] {
            var inserted = distinct
            inserted.insert(distinct[repeated], at: Int.random(in: (repeated + 1)...inserted.count))
            #expect(throws: DataStoreError.self) { try SampleBatch(validating: inserted, rules: rules) }
        }
    }

    /// Chunks cover the save in order without gaps, one per core and at most one per 256 samples; the first,
    /// whose thread also checks every sample's store and key, is smaller, and the others are equal.
    @Test func chunksCoverTheSaveInOrder() {
        #expect(SampleBatch.chunks(of: 0..<1_000, cores: 2) == [0..<400, 400..<1_000])
        #expect(SampleBatch.chunks(of: 0..<1_000, cores: 8) == [0..<200, 200..<600, 600..<1_000])
        #expect(SampleBatch.chunks(of: 0..<511, cores: 2) == [0..<511])
        #expect(SampleBatch.chunks(of: 0..<0, cores: 4) == [0..<0])
        for (count, cores) in [(10_000, 2), (10_000, 3), (100_000, 16), (777, 3), (2_048, 64)] {
            let chunks = SampleBatch.chunks(of: 5..<(5 + count), cores: cores)
            #expect(chunks.count == min(cores, count / 256))
            #expect(chunks.first?.lowerBound == 5 && chunks.last?.upperBound == 5 + count)
            #expect(zip(chunks, chunks.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
            let others = chunks.dropFirst().map(\.count)
            #expect(chunks[0].count < (others.min() ?? 0) && (others.max() ?? 0) - (others.min() ?? 0) <= 1)
        }
    }

    /// A failure in a later chunk is still reported, and of two failures the earlier sample's.
    @Test func aFailureInAnyChunkRefusesTheSave() throws {
        var generator = SystemRandomNumberGenerator()
        let rules = Self.rules(schema: Self.schema)
        var inserted = Self.randomSamples(2_000, from: 0, using: &generator)
        inserted[1_900] = Self.reading("late", ["timestamp": .date(Date()), "nope": .null])
        #expect(throws: DataStoreError.self) { try SampleBatch(validating: inserted, rules: rules) }
        inserted[10] = Self.reading("early", ["celsius": .double(1)])
        do {
            _ = try SampleBatch(validating: inserted, rules: rules)
            Issue.record("the save was accepted")
        } catch {
            #expect("\(error)".contains("has no date"), "\(error)")
        }
    }

    @Test func anEmptyBatchEncodesAnEmptyArray() throws {
        let batch = try SampleBatch(validating: [], rules: Self.rules(schema: Self.schema))
        #expect(batch.encoded.isEmpty && batch.earliest == nil && batch.latest == nil)
    }

    @Test func theRulesStillRefuse() throws {
        let rules = Self.rules(schema: Self.schema)
        let now = SnapshotValue.date(Date())
        func reason(_ inserted: [DataStoreSnapshot]) -> String? {
            do {
                _ = try SampleBatch(validating: inserted, rules: rules)
                return nil
            } catch {
                return "\(error)"
            }
        }
        #expect(reason([Self.reading("a", ["timestamp": now, "zone": .string("x")])]) == nil)
        #expect(
            reason([Self.reading("a", ["timestamp": now, "zonee": .string("x"), "zz": .null])])?
                .contains("has no attribute 'zonee'") == true)
        #expect(reason([Self.reading("a", ["celsius": .double(1)])])?.contains("has no date") == true)
        #expect(reason([Self.reading("a", ["timestamp": .string("today")])])?.contains("has no date") == true)
        #expect(
            reason([Self.reading("a", ["timestamp": now]), Self.reading("a", ["timestamp": now])])?
                .contains("appears more than once") == true)
        let elsewhere = DataStoreSnapshot(
            persistentIdentifier: PersistentIdentifier(
                storeIdentifier: "other", entityName: "Reading", primaryKey: "a"),
            values: ["timestamp": now])
        #expect(reason([elsewhere])?.contains("names store 'other'") == true)
        let unknownEntity = DataStoreSnapshot(
            persistentIdentifier: PersistentIdentifier(
                storeIdentifier: "ts", entityName: "Nope", primaryKey: "a"),
            values: ["timestamp": now])
        #expect(throws: DataStoreError.unknownEntity(store: "ts", entity: "Nope")) {
            try SampleBatch(validating: [unknownEntity], rules: rules)
        }
        // Without a schema any attribute goes, but the date is still required.
        let free = Self.rules(schema: nil)
        #expect(throws: Never.self) {
            try SampleBatch(validating: [Self.reading("a", ["timestamp": now, "zonee": .null])], rules: free)
        }
        #expect(throws: DataStoreError.self) {
            try SampleBatch(validating: [Self.reading("a", ["zonee": .null])], rules: free)
        }
    }
}
