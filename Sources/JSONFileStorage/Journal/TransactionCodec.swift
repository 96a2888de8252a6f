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
        writer.beginArray()
        for change in body.changes {
            writer.beginObject()
            writer.key("identifier")
            writer.identifier(change.identifier)
            writer.key("kind")
            writer.string(change.kind.rawValue)
            if let tombstone = change.tombstone {
                writer.key("tombstone")
                writer.values(tombstone)
            }
            writer.key("updatedAttributes")
            writer.beginArray()
            for name in change.updatedAttributes { writer.string(name) }
            writer.endArray()
            writer.key("values")
            writer.values(change.values)
            writer.endObject()
        }
        writer.endArray()
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
            let changesJSON = body["changes"]?.arrayValue
        else { throw JSONParser.Failure(offset: 0, reason: "a transaction record lacks a field") }
        var changes: [PlannedChange] = []
        changes.reserveCapacity(changesJSON.count)
        for change in changesJSON {
            guard let identifier = change["identifier"]?.identifierValue,
                let kind = change["kind"]?.stringValue.flatMap(HistoryChangeKind.init(rawValue:)),
                let values = change["values"]?.snapshotValues,
                let updated = change["updatedAttributes"]?.arrayValue?.compactMap(\.stringValue)
            else { throw JSONParser.Failure(offset: 0, reason: "a change lacks a field") }
            var tombstone: [String: SnapshotValue]?
            if let json = change["tombstone"] {
                guard let values = json.snapshotValues else {
                    throw JSONParser.Failure(offset: 0, reason: "a bad tombstone")
                }
                tombstone = values
            }
            changes.append(
                PlannedChange(
                    kind: kind, identifier: identifier, values: values, updatedAttributes: updated,
                    tombstone: tombstone))
        }
        return .transaction(
            JournalRecord.TransactionRecord(
                sequence: sequence, timestamp: Date(timeIntervalSinceReferenceDate: timestamp),
                author: body["author"]?.stringValue,
                bundle: bundle, process: process, firstChange: firstChange, changes: changes))
    }
}
