import DataStoreCore
import DataStoreKit
import Foundation

/// Transaction records through the shared fast JSON codec: the save and open hot path. The bytes are what
/// `JSONEncoder` with sorted keys writes for ``JournalRecord/transaction(_:)`` (the tests compare them).
enum TransactionCodec {
    static func encode(_ body: JournalRecord.TransactionRecord) -> Data {
        var unused: [Range<Int>]?
        return encode(body, valueSpans: &unused)
    }

    /// ``encode(_:)``, noting where each change's `values` object lies in the record when `valueSpans` is not
    /// `nil` (see ``RowEncodings``).
    static func encode(_ body: JournalRecord.TransactionRecord, valueSpans: inout [Range<Int>]?) -> Data {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("body")
        writer.beginObject()
        if let author = body.author {
            writer.key("author")
            writer.string(author)
        }
        writer.key("bundle")
        writer.string(body.bundle)
        writer.key("changes")
        PlannedChangeCodec.write(body.changes, into: &writer, valueSpans: &valueSpans)
        writer.key("firstChange")
        writer.integer(body.firstChange)
        writer.key("process")
        writer.string(body.process)
        writer.key("sequence")
        writer.integer(body.sequence)
        writer.key("timestamp")
        writer.double(body.timestamp.timeIntervalSinceReferenceDate)
        if let write = body.write {
            writer.key("write")
            writer.integer(write)
        }
        writer.endObject()
        writer.key("type")
        writer.string("transaction")
        writer.endObject()
        return writer.data
    }

    /// A snapshot's `rows` record, through the fast codec: `{"body":{"rows":[{"persistentIdentifier":…,
    /// "values":{…}},…]},"type":"rows"}`, as `JSONEncoder` with sorted keys spells it.
    static func encode(rows: ArraySlice<DataStoreSnapshot>) -> Data {
        encode(rows: rows, reusing: nil).record
    }

    /// ``encode(rows:)``, copying the values of the rows `encodings` holds instead of writing them again;
    /// returns how many it copied too.
    static func encode(rows: ArraySlice<DataStoreSnapshot>, reusing encodings: RowEncodings?) -> (
        record: Data, copied: Int
    ) {
        guard let encodings else { return (encode(rows: rows, lookup: { _ in nil }).record, 0) }
        return encodings.withLookup { encode(rows: rows, lookup: $0) }
    }

    private static func encode(
        rows: ArraySlice<DataStoreSnapshot>, lookup: ([String: SnapshotValue]) -> UnsafeRawBufferPointer?
    ) -> (record: Data, copied: Int) {
        var copied = 0
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("body")
        writer.beginObject()
        writer.key("rows")
        writer.beginArray()
        // Each row read in place: iterating the slice would copy each one, retaining and releasing its
        // identifier's strings and its values. The keys are the format's own (nothing to escape), and the
        // rows of an entity spell its name and store alike: copied, not written again.
        var spelling: JSONWriter.IdentifierSpelling?
        rows.withUnsafeBufferPointer { rows in
            for index in rows.indices {
                writer.beginObject()
                writer.key(literal: "persistentIdentifier")
                writer.identifier(rows[index].persistentIdentifier, reusing: &spelling)
                writer.key(literal: "values")
                if let encoded = lookup(rows[index].values) {
                    writer.encodedValue(encoded)
                    copied += 1
                } else {
                    writer.values(rows[index].values)
                }
                writer.endObject()
            }
        }
        writer.endArray()
        writer.endObject()
        writer.key("type")
        writer.string("rows")
        writer.endObject()
        return (writer.data, copied)
    }

    /// What a checkpoint needs of a transaction record to copy it into a segment: where it goes in history.
    struct Stamp: Equatable {
        var sequence: Int64
        var timestamp: Date
    }

    /// The sequence and time of the transaction record in `payload`, read without decoding its changes;
    /// `nil` when the record is not a transaction record.
    static func stamp(_ payload: Data) throws -> Stamp? {
        if let stamp = payload.withUnsafeBytes(stampFromTail) { return stamp }
        let root = try JSONParser.parse(payload, skippingValuesOf: "changes")
        guard root["type"]?.stringValue == "transaction" else { return nil }
        guard let body = root["body"], let sequence = body["sequence"]?.integerValue,
            let timestamp = body["timestamp"]?.doubleValue
        else { throw JSONParser.Failure(offset: 0, reason: "a transaction record lacks a field") }
        return Stamp(sequence: sequence, timestamp: Date(timeIntervalSinceReferenceDate: timestamp))
    }

    /// The stamp of a transaction record read from its last bytes, or `nil` when they are not shaped as this
    /// codec (and `JSONEncoder` with sorted keys) ends one: `…,"sequence":S,"timestamp":T[,"write":W]},
    /// "type":"transaction"}`.
    ///
    /// A checkpoint reads the stamp of every transaction in the journal, and passing over the changes to reach
    /// it cost more than the rest of the copy. With sorted keys, the body's sequence, time and write offset
    /// are its last members, each a number: a number holds no quote or comma, so each member is read from the
    /// bytes right before the next one's comma, and a key preceded by a comma cannot lie inside a string
    /// (its quotes would be escaped). Any other ending (another record kind, a key added later) is read by
    /// the parser. The record's changes are not looked at here, as the parser only passed over them.
    static func stampFromTail(_ bytes: UnsafeRawBufferPointer) -> Stamp? {
        let ending = #"},"type":"transaction"}"#.utf8
        guard bytes.count > ending.count, bytes.suffix(ending.count).elementsEqual(ending) else { return nil }
        var end = bytes.count - ending.count
        /// The number that the member spelled `name` (`,"key":`) holds, if it is the member that ends at `end`;
        /// moves `end` to the comma before it.
        func number(_ name: [UInt8]) -> JSONValue? {
            var start = end
            while start > 0, Self.spellsNumbers(bytes[start - 1]) { start -= 1 }
            guard start < end, start >= name.count,
                UnsafeRawBufferPointer(rebasing: bytes[(start - name.count)..<start]).elementsEqual(name),
                let value = try? JSONParser.parse(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            else { return nil }
            end = start - name.count
            return value
        }
        // The write offset, when the save wrote one, is the body's last member; otherwise the time is.
        _ = number(Self.writeMember)
        guard let timestamp = number(Self.timestampMember)?.doubleValue,
            let sequence = number(Self.sequenceMember)?.integerValue
        else { return nil }
        return Stamp(sequence: sequence, timestamp: Date(timeIntervalSinceReferenceDate: timestamp))
    }

    /// How the body's last members begin, spelled once (every journal transaction's stamp is read with them).
    private static let writeMember = Array(#","write":"#.utf8)
    private static let timestampMember = Array(#","timestamp":"#.utf8)
    private static let sequenceMember = Array(#","sequence":"#.utf8)

    /// Whether `byte` is one a JSON number is spelled with.
    private static func spellsNumbers(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "e"), UInt8(ascii: "E"):
            true
        default: false
        }
    }

    /// The record in `payload`: transactions and snapshot rows through the fast parser, the rare other kinds
    /// through `JSONDecoder`.
    static func decode(_ payload: Data) throws -> JournalRecord {
        let root = try JSONParser.parse(payload)
        if root["type"]?.stringValue == "rows" {
            guard let rows = root["body"]?["rows"]?.arrayValue else {
                throw JSONParser.Failure(offset: 0, reason: "a rows record lacks its rows")
            }
            return .rows(
                JournalRecord.RowsRecord(
                    rows: try rows.map { row throws(JSONParser.Failure) in
                        guard let identifier = row["persistentIdentifier"]?.identifierValue,
                            let values = row["values"]?.snapshotValues
                        else { throw JSONParser.Failure(offset: 0, reason: "a row lacks a field") }
                        return DataStoreSnapshot(persistentIdentifier: identifier, values: values)
                    }))
        }
        guard root["type"]?.stringValue == "transaction" else {
            return try JSONDecoder().decode(JournalRecord.self, from: payload)
        }
        guard let body = root["body"], let sequence = body["sequence"]?.integerValue,
            let timestamp = body["timestamp"]?.doubleValue, let bundle = body["bundle"]?.stringValue,
            let process = body["process"]?.stringValue, let firstChange = body["firstChange"]?.integerValue,
            let changesJSON = body["changes"]
        else { throw JSONParser.Failure(offset: 0, reason: "a transaction record lacks a field") }
        let changes = try PlannedChangeCodec.decode(changesJSON)
        return .transaction(
            JournalRecord.TransactionRecord(
                sequence: sequence, timestamp: Date(timeIntervalSinceReferenceDate: timestamp),
                author: body["author"]?.stringValue,
                bundle: bundle, process: process, firstChange: firstChange, changes: changes,
                write: body["write"]?.integerValue))
    }
}
