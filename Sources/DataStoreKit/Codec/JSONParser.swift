import Foundation

/// Parses JSON bytes into ``JSONValue``: the hot path for reading store records, several times faster than
/// `JSONDecoder` for them. It accepts exactly RFC 8259 JSON.
public struct JSONParser {
    /// Why parsing stopped.
    public struct Failure: Error, CustomStringConvertible {
        /// The byte offset in the input.
        public var offset: Int
        /// What was expected.
        public var reason: String
        /// `reason at offset N`.
        public var description: String { "\(reason) at byte \(offset)" }

        /// Creates a failure, for callers that find a well-formed value of the wrong shape.
        public init(offset: Int, reason: String) {
            self.offset = offset
            self.reason = reason
        }
    }

    /// The input, valid while ``parse(_:)`` runs: reading through a buffer pointer spares every byte a bounds
    /// check and every record a copy.
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    /// A key whose values are passed over, not built (see ``parse(_:skippingValuesOf:)``).
    private let skippedKey: String?

    /// Parses one JSON value that must fill the whole input (apart from white space).
    public static func parse(_ data: some Collection<UInt8>) throws(Failure) -> JSONValue {
        try parse(data, skipping: nil)
    }

    /// Parses as ``parse(_:)``, except that the value of every member named `key`, at any depth, is passed
    /// over and read as `null`: a reader that needs a record's small fields (a transaction's sequence and
    /// time) does not build its large one (the changes). A skipped value is checked only as far as its
    /// strings and the nesting of its brackets, so input that ``parse(_:)`` refuses inside a skipped value may
    /// parse here; everything outside skipped values is checked as ``parse(_:)`` checks it.
    public static func parse(_ data: some Collection<UInt8>, skippingValuesOf key: String) throws(Failure)
        -> JSONValue
    {
        try parse(data, skipping: key)
    }

    private static func parse(_ data: some Collection<UInt8>, skipping key: String?) throws(Failure)
        -> JSONValue
    {
        let parsed = data.withContiguousStorageIfAvailable { buffer in
            Result { () throws(Failure) -> JSONValue in try parse(buffer, skipping: key) }
        }
        if let parsed { return try parsed.get() }
        return try Array(data).withUnsafeBufferPointer { buffer in
            Result { () throws(Failure) -> JSONValue in try parse(buffer, skipping: key) }
        }.get()
    }

    private static func parse(_ buffer: UnsafeBufferPointer<UInt8>, skipping key: String?) throws(Failure)
        -> JSONValue
    {
        var parser = JSONParser(bytes: buffer, skippedKey: key)
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.position == parser.bytes.count else {
            throw parser.failure("unexpected bytes after the value")
        }
        return value
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, skippedKey: String?) {
        self.bytes = bytes
        self.skippedKey = skippedKey
    }

    private func failure(_ reason: String) -> Failure {
        Failure(offset: position, reason: reason)
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        guard depth < 512 else { throw failure("nesting too deep") }
        skipWhitespace()
        guard position < bytes.count else { throw failure("unexpected end of input") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default: return try number()
        }
    }

    private mutating func literal(_ word: String) throws(Failure) {
        for byte in word.utf8 {
            guard position < bytes.count, bytes[position] == byte else { throw failure("expected \(word)") }
            position += 1
        }
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        position += 1
        var members: [JSONValue.Member] = []
        // Records' objects are small (a value's tag, a sample's attributes): one allocation instead of three.
        members.reserveCapacity(4)
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw failure("expected a key")
            }
            let key = try string()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw failure("expected ':'")
            }
            position += 1
            if let skippedKey, key == skippedKey {
                try skipValue()
                members.append(JSONValue.Member(key, .null))
            } else {
                members.append(JSONValue.Member(key, try value(depth: depth + 1)))
            }
            skipWhitespace()
            guard position < bytes.count else { throw failure("unexpected end of an object") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            } else {
                throw failure("expected ',' or '}'")
            }
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        position += 1
        var elements: [JSONValue] = []
        elements.reserveCapacity(4)
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            elements.append(try value(depth: depth + 1))
            skipWhitespace()
            guard position < bytes.count else { throw failure("unexpected end of an array") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            } else {
                throw failure("expected ',' or ']'")
            }
        }
    }

    private mutating func string() throws(Failure) -> String {
        position += 1
        let start = position
        // The common case: no escapes, so the bytes are the string.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: bytes[start..<position], as: UTF8.self)
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw failure("a control character inside a string") }
            position += 1
        }
        var scalars = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { throw failure("unfinished escape") }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code) {
                        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                            bytes[position + 1] == UInt8(ascii: "u")
                        else { throw failure("an unpaired surrogate") }
                        position += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw failure("an unpaired surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw failure("an invalid code point") }
                    scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: throw failure("an unknown escape")
                }
            default:
                guard byte >= 0x20 else { throw failure("a control character inside a string") }
                scalars.append(byte)
            }
        }
        throw failure("an unterminated string")
    }

    /// Moves past one value without building it: a string to its closing quote, an array or object to the
    /// bracket that closes it, anything else to the `,`, `]` or `}` after it.
    private mutating func skipValue() throws(Failure) {
        skipWhitespace()
        var depth = 0
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\""):
                try skipString()
                if depth == 0 { return }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                guard depth < 512 else { throw failure("nesting too deep") }
                position += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                // At depth 0 the bracket closes the member's container: a number or literal ended before it.
                guard depth > 0 else { return }
                depth -= 1
                position += 1
                if depth == 0 { return }
            case UInt8(ascii: ","):
                if depth == 0 { return }
                position += 1
            default:
                position += 1
            }
        }
        throw failure("unexpected end of input")
    }

    /// Moves past the string that starts at `position`, escapes included, without decoding it.
    private mutating func skipString() throws(Failure) {
        position += 1
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\""):
                position += 1
                return
            case UInt8(ascii: "\\"):
                position += 2
            default:
                position += 1
            }
        }
        throw failure("an unterminated string")
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard position + 4 <= bytes.count else { throw failure("a short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            position += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("a bad hex digit")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// The integer the digits (with an optional leading `-`) spell, read straight from the bytes; `nil` when it
    /// does not fit in 18 digits, which the caller then reads through `Int64(String)`.
    private static func integer(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Int64? {
        var index = digits.startIndex
        let negative = digits[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard digits.endIndex - index <= 18 else { return nil }
        var value: Int64 = 0
        while index < digits.endIndex {
            value = value * 10 + Int64(digits[index] &- UInt8(ascii: "0"))
            index += 1
        }
        return negative ? -value : value
    }

    private mutating func number() throws(Failure) -> JSONValue {
        let start = position
        var isInteger = true
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) else {
            throw failure("expected a value")
        }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                position += 1
            }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            let digits = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                position += 1
            }
            guard position > digits else { throw failure("expected digits after '.'") }
        }
        if position < bytes.count,
            bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E")
        {
            isInteger = false
            position += 1
            if position < bytes.count,
                bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
            {
                position += 1
            }
            let digits = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
                position += 1
            }
            guard position > digits else { throw failure("expected exponent digits") }
        }
        if isInteger, let integer = Self.integer(bytes[start..<position]) { return .integer(integer) }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        // `Double("1e999")` is infinity: JSON has no infinite numbers, and `JSONDecoder` refuses them too.
        guard let double = Double(text), double.isFinite else { throw failure("a number out of range") }
        return .double(double)
    }
}
