import DataStoreCore
import DataStoreKit
import Foundation
import Testing

/// The hand-written codec must agree with Foundation's, byte for byte where it writes and value for value
/// where it reads, because files written by either must read back with either.
@Suite struct JSONCodecTests {
    static let strings = [
        "", "plain", "quote \" backslash \\ slash /", "line\nbreak\ttab\rreturn",
        "\u{0001}\u{001F}\u{0008}\u{000C}",
        "naïve café ☕️ 𝄞 日本", "emoji 👩🏽‍💻",
    ]

    static var values: [SnapshotValue] {
        var values: [SnapshotValue] = Self.strings.map(SnapshotValue.string)
        values += [
            .integer(0), .integer(-42), .integer(Int64.max), .integer(Int64.min), .double(0.1),
            .double(-1e-9),
            .double(1e300), .double(5), .double(.nan), .double(.infinity), .double(-.infinity), .bool(true),
            .bool(false),
            .date(Date(timeIntervalSinceReferenceDate: 816_914_917.4696283)),
            .date(Date(timeIntervalSinceReferenceDate: -3.25)),
            .data(Data([0, 1, 2, 250, 255])), .data(Data()), .uuid(UUID()), .null,
            .identifier(
                PersistentIdentifier(storeIdentifier: "trips", entityName: "Trip", primaryKey: "k/1")),
            .identifier(PersistentIdentifier(storeIdentifier: nil, entityName: "Trip", primaryKey: "k")),
            .array([.integer(1), .null, .array([.string("nested")])]), .array([]),
        ]
        return values
    }

    func foundationBytes(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    func writerBytes(_ value: SnapshotValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.value(value)
        return writer.bytes
    }

    func same(_ a: SnapshotValue, _ b: SnapshotValue) -> Bool {
        if case .double(let x) = a, case .double(let y) = b, x.isNaN, y.isNaN { return true }
        return a == b
    }

    @Test(arguments: values)
    func theWriterReadsBackWithJSONDecoderAndTheParser(value: SnapshotValue) throws {
        let bytes = writerBytes(value)
        let viaFoundation = try JSONDecoder().decode(SnapshotValue.self, from: Data(bytes))
        #expect(same(viaFoundation, value))
        let viaParser = try #require(try JSONParser.parse(bytes).snapshotValue)
        #expect(same(viaParser, value))
    }

    @Test(arguments: values)
    func theParserReadsWhatJSONEncoderWrites(value: SnapshotValue) throws {
        let parsed = try #require(try JSONParser.parse(try foundationBytes(value)).snapshotValue)
        #expect(same(parsed, value))
    }

    @Test func theWriterWritesWhatJSONEncoderWritesForRecords() throws {
        let values: [String: SnapshotValue] = [
            "title": .string("a \"title\""), "rank": .integer(7),
            "when": .date(Date(timeIntervalSinceReferenceDate: 12.5)),
            "ratio": .double(0.25), "ok": .bool(true), "none": .null,
        ]
        var writer = JSONWriter()
        writer.values(values)
        #expect(
            String(decoding: writer.bytes, as: UTF8.self)
                == String(decoding: try foundationBytes(values), as: UTF8.self))
    }

    /// A writer keeps the sorted names of the last dictionary it wrote and reuses their order when the next has
    /// the same names: every dictionary must still come out sorted, whatever names it has and in whatever
    /// order its own storage holds them.
    @Test func dictionariesInARowComeOutSortedWhateverTheirNames() throws {
        func shuffled(_ names: [String], capacity: Int) -> [String: SnapshotValue] {
            var values = [String: SnapshotValue](minimumCapacity: capacity)
            for (number, name) in names.enumerated() { values[name] = .integer(Int64(number)) }
            return values
        }
        let rows: [[String: SnapshotValue]] = [
            shuffled(["b", "a", "c", "d"], capacity: 4), shuffled(["d", "c", "b", "a"], capacity: 64),
            shuffled(["a", "b", "c", "e"], capacity: 4), shuffled(["a", "b", "c"], capacity: 8),
            shuffled(["a", "b", "c", "d", "e"], capacity: 4),
            shuffled(["e", "d", "c", "b", "a"], capacity: 32),
            shuffled(["z"], capacity: 1), [:], shuffled(["c", "b"], capacity: 2),
            shuffled(["b", "c"], capacity: 2), shuffled(["q\"uote", "new\nline"], capacity: 2),
            shuffled(["new\nline", "q\"uote"], capacity: 8),
        ]
        var writer = JSONWriter()
        writer.beginArray()
        for row in rows { writer.values(row) }
        writer.endArray()
        #expect(
            String(decoding: writer.bytes, as: UTF8.self)
                == String(decoding: try foundationBytes(rows), as: UTF8.self))
    }

    /// The writer looks for bytes to escape eight at a time: every byte value, at every position of strings
    /// of 1 to 19 bytes (inside the words, at their edges and in the tail read one by one), among bytes that
    /// need no escape, is found exactly when it needs one.
    @Test func theScanForBytesToEscapeFindsExactlyThem() {
        var misjudged: [(length: Int, position: Int, byte: UInt8)] = []
        for length in 1...19 {
            for position in 0..<length {
                for byte in UInt8.min...UInt8.max {
                    // Around it, bytes just past each boundary the word tests compare with.
                    let neighbours: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0xFF]
                    var bytes = (0..<length).map { neighbours[$0 % 8] }
                    bytes[position] = byte
                    let expected = byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
                    let found = bytes.withUnsafeBufferPointer { JSONWriter.needsEscaping($0) }
                    if found != expected { misjudged.append((length, position, byte)) }
                }
            }
        }
        #expect(misjudged.isEmpty, "\(misjudged.prefix(5))")
        #expect(!JSONWriter.needsEscaping(UnsafeBufferPointer(start: nil, count: 0)))
    }

    @Test func escapedInputParses() throws {
        let json = #"{"a":"\u00e9\ud834\udd1e\/\n","b":[1,-2.5e3,true,false,null],"c":{}}"#
        let value = try JSONParser.parse(Array(json.utf8))
        #expect(value["a"]?.stringValue == "é𝄞/\n")
        #expect(value["b"] == .array([.integer(1), .double(-2500), .bool(true), .bool(false), .null]))
        #expect(value["c"] == .object([]))
    }

    /// A skipped member reads as `null` and everything around it as a full parse reads it, whatever the
    /// skipped value holds (escaped quotes and brackets inside strings, nesting, numbers, literals) and wherever
    /// it stands (first, last, nested, inside an array's object).
    @Test(arguments: values)
    func aSkippedValueLeavesTheRestAsAFullParseReadsIt(value: SnapshotValue) throws {
        let spelled = String(decoding: writerBytes(value), as: UTF8.self)
        let tricky = #"["]}\"\\",{"skip":[1,{"x":"}"}]}]"#
        let documents = [
            #"{"skip":\#(spelled),"a":1}"#, #"{"a":[\#(spelled)],"skip":\#(spelled)}"#,
            #"{"o":{"skip":\#(spelled),"k":"v"},"n":-2.5e3,"skip":\#(tricky)}"#,
            #"[{"skip" : \#(spelled) , "b":true},{"skip":null},{"skip":12.5},{"skip":false}]"#,
        ]
        for document in documents {
            let skipped = try JSONParser.parse(Array(document.utf8), skippingValuesOf: "skip")
            #expect(
                skipped == Self.nullingSkip(in: try JSONParser.parse(Array(document.utf8))), "\(document)")
        }
    }

    /// A skipped value that does not end is an error, not the end of the document.
    @Test(arguments: [#"{"skip":"open"#, #"{"skip":[1,2"#, #"{"skip":{"a":"]"}"#, #"{"skip":12"#])
    func anUnfinishedSkippedValueIsRejected(json: String) {
        #expect(throws: JSONParser.Failure.self) {
            try JSONParser.parse(Array(json.utf8), skippingValuesOf: "skip")
        }
    }

    static func nullingSkip(in value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(
                members.map { JSONValue.Member($0.key, $0.key == "skip" ? .null : nullingSkip(in: $0.value)) }
            )
        case .array(let elements): return .array(elements.map(nullingSkip))
        default: return value
        }
    }

    @Test(arguments: [
        "", "{", "[1,]", #"{"a":1,}"#, "01", "1.", "-", #""\x""#, #""\ud834""#, "tru", #"{"a" 1}"#, "[1] 2",
        "\"a\u{0001}\"",
        "1e", "nul",
    ])
    func malformedInputIsRejected(json: String) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(json.utf8)) }
    }

    /// Integers written by the writer parse back exactly: the digits are read straight from the bytes up to 18
    /// of them, and through `Int64(String)` beyond, at every length and both signs, the extremes included.
    @Test func integersOfEveryLengthRoundTrip() throws {
        var numbers: [Int64] = [0, -1, 1, .max, .min, .max - 1, .min + 1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            numbers += [power - 1, power, power + 1, -(power - 1), -power, -(power + 1)]
        }
        for number in numbers {
            var writer = JSONWriter()
            writer.integer(number)
            #expect(try JSONParser.parse(writer.bytes) == .integer(number), "\(number)")
        }
        #expect(try JSONParser.parse(Array("-0".utf8)) == .integer(0))
    }

    /// Doubles are written as `JSONEncoder` spells them: integral values up to 2^53 as integers, others as
    /// `description` does: dates with up to seven decimals, random magnitudes and random bit patterns, both
    /// signs, values either side of the integral path's bound.
    @Test func doublesAreSpelledAsDescriptionSpellsThem() throws {
        var generator = SystemRandomNumberGenerator()
        var numbers: [Double] = [
            1.5, -1.5, 0.5, 1.0000001, 9_007_199_254_740_991.5, 9_007_199_254_740_994, 0.1,
        ]
        for index in 0..<60_000 {
            let places = Double([1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000][index % 8])
            numbers.append(
                816_000_000 + Double(Int.random(in: 0..<1_000_000_000, using: &generator)) / places)
            numbers.append(Double.random(in: 1..<1e12, using: &generator))
            numbers.append(
                Double(bitPattern: UInt64.random(in: 0..<Double.infinity.bitPattern, using: &generator)))
            numbers.append(Double(Int.random(in: -100_000...100_000, using: &generator)) / places)
        }
        var mismatches: [String] = []
        for number in numbers {
            var writer = JSONWriter()
            writer.double(number)
            let written = String(decoding: writer.bytes, as: UTF8.self)
            let expected =
                number.rounded(.towardZero) == number && abs(number) < 9_007_199_254_740_992
                ? String(Int64(number)) : number.description
            if written != expected && !(number == 0 && written == "-0") {
                mismatches.append("\(expected) as \(written)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(try JSONParser.parse(Array("9223372036854775808".utf8)) == .double(9_223_372_036_854_775_808))
    }
}
