import DataStoreCore
import DataStoreKit
import Foundation

/// Commit records through the shared fast JSON codec: the ingest and range-query hot path. The bytes are what
/// `JSONEncoder` with sorted keys writes for ``SegmentRecord/transaction(_:)`` (the tests compare them), so
/// either can read what the other wrote.
enum CommitCodec {
    /// The record's bytes for `commit`.
    static func encode(_ commit: SegmentRecord.Commit) -> Data {
        var writer = JSONWriter()
        write(commit, into: &writer)
        return writer.data
    }

    /// The framed line for `commit`'s record (see ``encode(_:)``), framed straight from the writer's bytes.
    static func line(_ commit: SegmentRecord.Commit) -> Data {
        var writer = JSONWriter()
        write(commit, into: &writer)
        return writer.withBytes { RecordFraming.frame($0) }
    }

    /// The framed line for `commit`, whose samples are `batch`'s: the batch's bytes are copied once, into the
    /// line, and their checksum (computed with them, on as many cores) is combined with the rest's.
    static func line(_ commit: SegmentRecord.Commit, samples batch: SampleBatch) -> Data {
        var head = JSONWriter()
        writeHead(commit, into: &head)
        head.beginArray()
        var tail = JSONWriter()
        tail.endArray()
        writeTail(commit, into: &tail)
        return head.withBytes { head in
            tail.withBytes { tail in
                batch.encoded.withUnsafeBytes { samples in
                    var checksum = CRC32.combine(
                        CRC32.checksum(head), batch.encodedChecksum, secondLength: samples.count)
                    checksum = CRC32.combine(checksum, CRC32.checksum(tail), secondLength: tail.count)
                    return RecordFraming.frame([head, samples, tail], checksum: checksum)
                }
            }
        }
    }

    private static func write(_ commit: SegmentRecord.Commit, into writer: inout JSONWriter) {
        writeHead(commit, into: &writer)
        writer.beginArray()
        for sample in commit.samples {
            beginSample(entity: sample.entity, key: sample.key, into: &writer)
            writer.values(sample.values)
            writer.endObject()
        }
        writer.endArray()
        writeTail(commit, into: &writer)
    }

    /// The record up to its samples: `{"body":{…,"samples":`.
    private static func writeHead(_ commit: SegmentRecord.Commit, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("body")
        writer.beginObject()
        if let author = commit.author {
            writer.key("author")
            writer.string(author)
        }
        writer.key("bundle")
        writer.string(commit.bundle)
        writer.key("earliest")
        writer.double(commit.earliest.timeIntervalSinceReferenceDate)
        writer.key("firstChange")
        writer.integer(commit.firstChange)
        writer.key("latest")
        writer.double(commit.latest.timeIntervalSinceReferenceDate)
        writer.key("process")
        writer.string(commit.process)
        writer.key("samples")
    }

    /// The record after its samples' array: `,"sequence":…,"timestamp":…},"type":"transaction"}`.
    private static func writeTail(_ commit: SegmentRecord.Commit, into writer: inout JSONWriter) {
        writer.key("sequence")
        writer.integer(commit.sequence)
        writer.key("timestamp")
        writer.double(commit.timestamp.timeIntervalSinceReferenceDate)
        writer.endObject()
        writer.key("type")
        writer.string("transaction")
        writer.endObject()
    }

    /// Opens a sample's object and writes its keys up to its values: `{"entity":…,"key":…,"values":`. The
    /// caller writes the values object, then closes the sample with `endObject()`.
    static func beginSample(entity: String, key: String, into writer: inout JSONWriter) {
        writer.beginObject()
        writer.key(SampleKeys.entity)
        writer.string(entity)
        writer.key(SampleKeys.key)
        writer.string(key)
        writer.key(SampleKeys.values)
    }

    /// The keys of a sample's object, spelled once.
    private enum SampleKeys {
        static let entity = JSONWriter.EncodedKey("entity")
        static let key = JSONWriter.EncodedKey("key")
        static let values = JSONWriter.EncodedKey("values")
    }

    /// Which samples a reader wants: those whose `attribute` holds a date within `range`, and any without one.
    /// A fetch over a time range passes it so that the samples of a straddling commit outside the range are not
    /// turned into values; the commit it returns then holds only the wanted samples.
    struct SampleWindow {
        var attribute: String
        var range: ClosedRange<Date>

        func wants(_ sample: JSONValue) -> Bool {
            guard let seconds = sample["values"]?[attribute]?["date"]?.doubleValue else { return true }
            return range.contains(Date(timeIntervalSinceReferenceDate: seconds))
        }
    }

    /// The commit in a record's bytes; `nil` for a header record. Throws for anything malformed. With a
    /// `window`, samples outside it are left out (see ``SampleWindow``).
    static func decode(_ payload: Data, window: SampleWindow? = nil) throws -> SegmentRecord.Commit? {
        let root = try JSONParser.parse(payload)
        guard root["type"]?.stringValue == "transaction" else {
            if root["type"]?.stringValue == "header" { return nil }
            throw JSONParser.Failure(offset: 0, reason: "an unknown record type")
        }
        guard let body = root["body"], let sequence = body["sequence"]?.integerValue,
            let timestamp = body["timestamp"]?.doubleValue, let bundle = body["bundle"]?.stringValue,
            let process = body["process"]?.stringValue, let firstChange = body["firstChange"]?.integerValue,
            let earliest = body["earliest"]?.doubleValue, let latest = body["latest"]?.doubleValue,
            let samplesJSON = body["samples"]?.arrayValue
        else { throw JSONParser.Failure(offset: 0, reason: "a transaction record lacks a field") }
        var samples: [SegmentRecord.Sample] = []
        samples.reserveCapacity(samplesJSON.count)
        for sample in samplesJSON where window?.wants(sample) ?? true {
            guard let entity = sample["entity"]?.stringValue, let key = sample["key"]?.stringValue,
                let values = sample["values"]?.snapshotValues
            else { throw JSONParser.Failure(offset: 0, reason: "a sample lacks a field") }
            samples.append(SegmentRecord.Sample(entity: entity, key: key, values: values))
        }
        return SegmentRecord.Commit(
            sequence: sequence, timestamp: Date(timeIntervalSinceReferenceDate: timestamp),
            author: body["author"]?.stringValue,
            bundle: bundle, process: process, firstChange: firstChange,
            earliest: Date(timeIntervalSinceReferenceDate: earliest),
            latest: Date(timeIntervalSinceReferenceDate: latest),
            samples: samples)
    }
}
