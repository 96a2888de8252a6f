import DataStoreCore
import DataStoreKit
import DataStoreModels
import Foundation
import JSONFileStorage

/// What the fuzz targets check on one input, shared by the libFuzzer executables (which crash on a violation, so
/// that the fuzzer saves the input) and by `swift test`, which replays the corpus and every saved crasher.
///
/// Each check returns `nil` when the input was handled correctly (a typed error counts as correct for bad
/// bytes), and a description of the broken property otherwise. A crash or a hang inside a check is a failure
/// the fuzzer reports on its own.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// `JSONParser` on any bytes: a value or a `JSONParser.Failure`; a parsed value written back with
    /// `JSONWriter` parses to the same value; passing over the values of the first key it holds reads the rest
    /// as the full parse does.
    case json
    /// `RecordFraming` on any bytes: records whose checksums hold, ending where the valid data ends; every
    /// record framed again parses to the same payload.
    case framing
    /// History tokens and composite tokens decoded from any bytes (`HistoryTokenCoding.decode(_:fromJSON:)`): a
    /// token or `malformedHistoryToken`; a decoded token encodes and decodes to itself.
    case tokens
    /// A JSON file store whose journal holds any bytes, opened read-only: it opens (and its models and history
    /// read back) or throws a `DataStoreError`, and the bytes are left unchanged.
    case journal
    /// A JSON file store's whole directory (journal, snapshot, history segments) as a `StoreArchive`, opened
    /// read-only: it reads back (models, history, verification) or throws a `DataStoreError`; no byte changes.
    case jsonstore
    /// A time-series store's directory (`index.json`, segments) as a `StoreArchive`, opened read-only: it reads
    /// back (samples, history, verification) or throws a `DataStoreError`; no byte changes.
    case timeseries
    /// A predicate and rows built from the input (structure-aware): the analysis's bounds are exact when they
    /// say so and necessary otherwise, and the in-memory store's fetch agrees with `evaluate`.
    case predicates

    /// Checks one input. With `refusalIsFailure`, the targets that open a store (`journal`, `jsonstore`,
    /// `timeseries`) also fail when the store refuses the input: for seeds, which must be valid stores.
    public func check(_ bytes: [UInt8], refusalIsFailure: Bool = false) -> String? {
        switch self {
        case .json: FuzzChecks.json(bytes)
        case .framing: FuzzChecks.framing(bytes)
        case .tokens: FuzzChecks.tokens(bytes)
        case .journal: FuzzChecks.journal(bytes, refusalIsFailure: refusalIsFailure)
        case .jsonstore: FuzzChecks.jsonStore(bytes, refusalIsFailure: refusalIsFailure)
        case .timeseries: FuzzChecks.timeSeries(bytes, refusalIsFailure: refusalIsFailure)
        case .predicates: FuzzChecks.predicates(bytes)
        }
    }
}

enum FuzzChecks {
    static func json(_ bytes: [UInt8]) -> String? {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            return nil  // a typed failure: correct for bytes that are not JSON
        }
        var writer = JSONWriter()
        write(value, to: &writer)
        let written = writer.bytes
        do {
            let again = try JSONParser.parse(written)
            guard same(again, value) else {
                return "a parsed value written back parses to another value: \(value) became \(again)"
            }
        } catch {
            return
                "a parsed value written back does not parse: \(error) in \(String(decoding: written, as: UTF8.self))"
        }
        // Whatever the parser can skip, it skips on any bytes without crashing; on valid JSON, skipping a key
        // reads that key's values as null and everything else as the full parse reads it.
        _ = try? JSONParser.parse(bytes, skippingValuesOf: "a")
        guard let key = firstKey(in: value) else { return nil }
        do {
            let skipped = try JSONParser.parse(bytes, skippingValuesOf: key)
            guard same(skipped, nulling(key, in: value)) else {
                return "skipping '\(key)' read \(skipped), not \(nulling(key, in: value))"
            }
        } catch {
            return "skipping '\(key)' refused JSON the full parse read: \(error)"
        }
        return nil
    }

    /// The first member name in `value`, depth first.
    private static func firstKey(in value: JSONValue) -> String? {
        switch value {
        case .object(let members):
            return members.first?.key
        case .array(let elements):
            for element in elements { if let key = firstKey(in: element) { return key } }
            return nil
        default:
            return nil
        }
    }

    /// `value` with every member named `key` read as null, not looking inside those members.
    private static func nulling(_ key: String, in value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(
                members.map { JSONValue.Member($0.key, $0.key == key ? .null : nulling(key, in: $0.value)) })
        case .array(let elements):
            return .array(elements.map { nulling(key, in: $0) })
        default:
            return value
        }
    }

    /// Equality of JSON values: JSON has one kind of number, so `2400` and `24e2` are the same value whichever
    /// case the parser chose for each (the writer spells a whole double as an integer, as `JSONEncoder` does).
    private static func same(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.integer(let left), .double(let right)), (.double(let right), .integer(let left)):
            return Double(left) == right
        case (.double(let left), .double(let right)):
            return left == right || (left.isNaN && right.isNaN)
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { same($0, $1) }
        case (.object(let left), .object(let right)):
            return left.count == right.count
                && zip(left, right).allSatisfy { $0.key == $1.key && same($0.value, $1.value) }
        default:
            return lhs == rhs
        }
    }

    private static func write(_ value: JSONValue, to writer: inout JSONWriter) {
        switch value {
        case .object(let members):
            writer.beginObject()
            for member in members {
                writer.key(member.key)
                write(member.value, to: &writer)
            }
            writer.endObject()
        case .array(let elements):
            writer.beginArray()
            for element in elements { write(element, to: &writer) }
            writer.endArray()
        case .string(let text): writer.string(text)
        case .integer(let number): writer.integer(number)
        case .double(let number): writer.double(number)
        case .bool(let flag): writer.bool(flag)
        case .null: writer.null()
        }
    }

    static func framing(_ bytes: [UInt8]) -> String? {
        let data = Data(bytes)
        for ending in [RecordFraming.Ending.appended, .preallocated] {
            let parsed: RecordFraming.ParseResult
            do {
                parsed = try RecordFraming.parse(data, startingAt: 0, path: "fuzz", ending: ending)
            } catch {
                continue  // damage, reported as damage
            }
            guard parsed.endOfValidData >= 0, parsed.endOfValidData <= Int64(data.count) else {
                return "the valid data ends at \(parsed.endOfValidData), outside the \(data.count) bytes"
            }
            var reframed = Data()
            for record in parsed.records {
                guard record.offset >= 0, record.offset < parsed.endOfValidData else {
                    return "a record at \(record.offset) lies past the valid data (\(parsed.endOfValidData))"
                }
                reframed.append(RecordFraming.frame(record.payload))
            }
            do {
                let again = try RecordFraming.parse(reframed, startingAt: 0, path: "fuzz")
                guard again.records.map(\.payload) == parsed.records.map(\.payload), !again.hasTornTail else {
                    return "records framed again do not parse to the same payloads"
                }
            } catch {
                return "records framed again are reported as damaged: \(error)"
            }
        }
        return nil
    }

    static func tokens(_ bytes: [UInt8]) -> String? {
        let data = Data(bytes)
        if let failure = roundTrip(JSONFileHistoryToken.self, data) { return failure }
        if let failure = roundTrip(CompositeHistoryToken.self, data) { return failure }
        return nil
    }

    private static func roundTrip<Token: HistoryToken & Codable>(_: Token.Type, _ data: Data) -> String? {
        let token: Token
        do {
            token = try HistoryTokenCoding.decode(Token.self, fromJSON: data)
        } catch {
            // Refused, as a malformed or foreign token must be, with the one code apps match on.
            guard error.code == .malformedHistoryToken else {
                return "\(Token.self): bad bytes threw \(error.code), not malformedHistoryToken"
            }
            return nil
        }
        do {
            let again = try HistoryTokenCoding.decode(Token.self, fromJSON: try JSONEncoder().encode(token))
            guard again == token else { return "\(Token.self) \(token) encodes and decodes to \(again)" }
        } catch {
            return
                "\(Token.self) \(token) decoded from the input cannot be encoded and decoded again: \(error)"
        }
        return nil
    }

    static func journal(_ bytes: [UInt8], refusalIsFailure: Bool) -> String? {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fuzz-journal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(bytes).write(to: directory.appendingPathComponent("journal.jsonl"))
        } catch {
            return nil  // the machine, not the store
        }
        do {
            let store = try JSONFileDataStore(
                JSONFileStoreConfiguration(name: "trips", directory: directory, isReadOnly: true))
            _ = try store.modelCount()
            _ = try store.fetchHistory(HistoryDescriptor())
        } catch let error as DataStoreError {
            if refusalIsFailure { return "the store refused the journal: \(error)" }
        } catch {
            return "opening a damaged journal threw an untyped error: \(error)"
        }
        let after = StoreArchive.contents(of: directory.appendingPathComponent("journal.jsonl")) ?? Data()
        guard after == Data(bytes) else { return "a read-only open changed the journal's bytes" }
        return nil
    }
}
