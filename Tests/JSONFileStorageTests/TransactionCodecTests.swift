import DataStoreCore
import Foundation
import Testing

@testable import JSONFileStorage

/// The journal's fast codec and Foundation's Codable write the same bytes and read each other's records.
@Suite struct TransactionCodecTests {
    static let record = JournalRecord.TransactionRecord(
        sequence: 42, timestamp: Date(timeIntervalSinceReferenceDate: 816_914_917.4696283),
        author: "widget \"w\"",
        bundle: "sample-trips", process: "18206", firstChange: 7,
        changes: [
            PlannedChange(
                kind: .insert,
                identifier: .init(storeIdentifier: "trips", entityName: "Trip", primaryKey: "k1"),
                values: [
                    "name": .string("Lisbon\n"), "days": .integer(5),
                    "start": .date(Date(timeIntervalSinceReferenceDate: 1.5)),
                ]),
            PlannedChange(
                kind: .update,
                identifier: .init(storeIdentifier: "trips", entityName: "Trip", primaryKey: "k2"),
                values: ["ok": .bool(true)], updatedAttributes: ["ok"]),
            PlannedChange(
                kind: .delete,
                identifier: .init(storeIdentifier: "trips", entityName: "Stay", primaryKey: "k3"),
                tombstone: ["placeName": .string("Tent Dune")]),
        ])

    func foundation(_ record: JournalRecord) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(record)
    }

    @Test(arguments: [
        Self.record,
        {
            var anonymous = Self.record
            anonymous.author = nil
            return anonymous
        }(),
        {
            // Identifiers spelled with their entity and store reused, then changed: another store, none, and an
            // entity name that needs escaping.
            var mixed = Self.record
            mixed.changes = [
                ("trips", "Trip", "a"), ("trips", "Trip", "b"), ("other", "Trip", "c"), (nil, "Trip", "d"),
                ("trips", "Trip", "e"), ("trips", "Odd \"name\"", "f"), ("trips", "Trip", "g"),
            ].map { store, entity, key in
                PlannedChange(
                    kind: .delete,
                    identifier: .init(storeIdentifier: store, entityName: entity, primaryKey: key),
                    tombstone: [:])
            }
            return mixed
        }(),
    ])
    func fastAndFoundationWriteTheSameBytes(record: JournalRecord.TransactionRecord) throws {
        let fast = TransactionCodec.encode(record)
        #expect(
            String(decoding: fast, as: UTF8.self)
                == String(decoding: try foundation(.transaction(record)), as: UTF8.self))
        guard case .transaction(let decoded) = try JSONDecoder().decode(JournalRecord.self, from: fast) else {
            Issue.record("not a transaction")
            return
        }
        #expect(
            decoded.changes == record.changes && decoded.sequence == record.sequence
                && decoded.author == record.author)
        guard
            case .transaction(let parsed) = try TransactionCodec.decode(try foundation(.transaction(record)))
        else {
            Issue.record("not a transaction")
            return
        }
        #expect(
            parsed.changes == record.changes && parsed.timestamp == record.timestamp
                && parsed.firstChange == 7)
    }

    /// A checkpoint's rows records, spelled by the fast codec (each identifier's entity and store copied from
    /// the row before when they are the same), are the bytes Foundation writes: rows of several entities and
    /// stores, and an entity name that needs escaping.
    @Test func rowsRecordsAreTheBytesFoundationWrites() throws {
        let rows = [
            ("trips", "Trip", "a"), ("trips", "Trip", "b"), ("other", "Trip", "c"), (nil, "Trip", "d"),
            ("trips", "Trip", "e"), ("trips", "Odd \"name\"", "f"), ("trips", "Trip", "g\n"),
        ].map { store, entity, key in
            DataStoreSnapshot(
                persistentIdentifier: .init(storeIdentifier: store, entityName: entity, primaryKey: key),
                values: ["name": .string("n \(key)"), "days": .integer(3)])
        }
        let fast = TransactionCodec.encode(rows: rows[...])
        #expect(
            String(decoding: fast, as: UTF8.self)
                == String(decoding: try foundation(.rows(.init(rows: rows))), as: UTF8.self))
    }

    @Test func otherRecordKindsStillDecode() throws {
        let header = JournalRecord.header(.init(format: 1, store: "trips", epoch: UUID(), created: Date()))
        guard case .header(let decoded) = try TransactionCodec.decode(try foundation(header)) else {
            Issue.record("not a header")
            return
        }
        #expect(decoded.store == "trips")
        // A checkpoint reads no stamp from a record that is not a transaction.
        #expect(try TransactionCodec.stamp(try foundation(header)) == nil)
    }

    /// A checkpoint reads a transaction's sequence and time without decoding its changes: they are what a
    /// full decode reads, for records whose changes hold the field names and brackets it passes over.
    @Test func theStampIsWhatTheFullDecodeReads() throws {
        var record = Self.record
        record.sequence = 9_007_199_254_740_993
        record.changes.append(
            PlannedChange(
                kind: .insert,
                identifier: .init(storeIdentifier: "trips", entityName: "Trip", primaryKey: "}]"),
                values: ["sequence": .integer(1), "timestamp": .string("\"],{"), "write": .array([.null])]))
        record.write = 128
        for bytes in [TransactionCodec.encode(record), try foundation(.transaction(record))] {
            guard case .transaction(let decoded) = try TransactionCodec.decode(bytes) else {
                Issue.record("not a transaction")
                return
            }
            let stamp = try #require(try TransactionCodec.stamp(bytes))
            #expect(stamp == TransactionCodec.Stamp(sequence: decoded.sequence, timestamp: decoded.timestamp))
            #expect(stamp.sequence == 9_007_199_254_740_993 && stamp.timestamp == record.timestamp)
        }
    }

    /// The stamp is read from the record's last bytes where they end as the codec ends a transaction record:
    /// it is then what the full decode reads, whatever the process name and the changes hold; any other
    /// ending is left to the parser, which reads the same stamp.
    @Test(arguments: [nil, 128] as [Int64?], [nil, "app"] as [String?])
    func theTailGivesTheStampTheDecodeReads(write: Int64?, author: String?) throws {
        for process in ["18206", #"a","sequence":5"#, #"x\"#, #"","timestamp":1,"write":2"#] {
            var record = Self.record
            record.write = write
            record.author = author
            record.process = process
            record.timestamp = Date(
                timeIntervalSinceReferenceDate: process.count.isMultiple(of: 2) ? 1e-7 : 7)
            record.changes.append(
                PlannedChange(
                    kind: .insert,
                    identifier: .init(storeIdentifier: "trips", entityName: "Trip", primaryKey: "k9"),
                    values: ["sequence": .integer(1), "write": .integer(3), "timestamp": .double(2.5)]))
            for bytes in [TransactionCodec.encode(record), try foundation(.transaction(record))] {
                guard case .transaction(let decoded) = try TransactionCodec.decode(bytes) else {
                    Issue.record("not a transaction")
                    return
                }
                let tail = bytes.withUnsafeBytes { TransactionCodec.stampFromTail($0) }
                #expect(
                    tail == TransactionCodec.Stamp(sequence: decoded.sequence, timestamp: decoded.timestamp),
                    "process \(process)")
            }
        }
    }

    @Test func otherEndingsAreLeftToTheParser() throws {
        let body = #""changes":[],"firstChange":1,"process":"p","sequence":3,"timestamp":4.5"#
        let expected = TransactionCodec.Stamp(
            sequence: 3, timestamp: Date(timeIntervalSinceReferenceDate: 4.5))
        for json in [
            #"{"body":{\#(body),"zone":1},"type":"transaction"}"#,
            #"{"type":"transaction","body":{\#(body)}}"#,
            #"{"body":{\#(body)} ,"type":"transaction"}"#,
        ] {
            let bytes = Data(json.utf8)
            #expect(bytes.withUnsafeBytes { TransactionCodec.stampFromTail($0) } == nil, "\(json)")
            #expect(try TransactionCodec.stamp(bytes) == expected, "\(json)")
        }
        let header = try foundation(.header(.init(format: 1, store: "t", epoch: UUID(), created: Date())))
        #expect(header.withUnsafeBytes { TransactionCodec.stampFromTail($0) } == nil)
    }
}
