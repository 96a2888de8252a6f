import DataStoreCore
import Foundation
import StoreFileSupport

/// Transaction records through the shared fast JSON codec: the save and open hot path. The bytes are what
/// `JSONEncoder` with sorted keys writes for ``JournalRecord/transaction(_:)`` (the tests compare them).
enum TransactionCodec {
    static func encode(_ body: JournalRecord.TransactionRecord) -> Data {
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
        PlannedChangeCodec.write(body.changes, into: &writer)
        writer.key("firstChange")
        writer.integer(body.firstChange)
        writer.key("process")
        writer.string(body.process)
        writer.key("sequence")
        writer.integer(body.sequence)
        writer.key("timestamp")
        writer.double(body.timestamp.timeIntervalSinceReferenceDate)
        writer.endObject()
        writer.key("type")
        writer.string("transaction")
        writer.endObject()
        return Data(writer.bytes)
    }

    /// The record in `payload`: transactions through the fast parser, the rare other kinds through
    /// `JSONDecoder`.
    static func decode(_ payload: Data) throws -> JournalRecord {
        let root = try JSONParser.parse(payload)
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
                bundle: bundle, process: process, firstChange: firstChange, changes: changes))
    }
}
