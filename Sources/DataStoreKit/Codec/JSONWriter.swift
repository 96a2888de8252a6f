public import DataStoreCore
public import Foundation

/// Writes JSON bytes directly: the hot path for store records, about ten times faster than `JSONEncoder`
/// for samples and changes. The output is what `JSONEncoder` with sorted keys and unescaped slashes writes,
/// as long as callers write keys in sorted order (the tests check both agree).
///
/// The writer owns a plain growable buffer rather than an `Array`, because a record is written a few bytes at
/// a time and an array checks its uniqueness on every append; being non-copyable is what lets it skip that.
public struct JSONWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int
    private var needsComma = false
    /// The names of the last dictionary of values written, sorted: the rows and changes of a record mostly
    /// have the same attributes, whose order is then known without sorting them again.
    private var lastSortedNames: [String] = []
    /// The same names spelled as keys, made when their order is first reused.
    private var lastSortedKeys: [EncodedKey] = []

    /// An empty writer.
    public init() {
        capacity = 256
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The bytes written so far.
    public var bytes: [UInt8] {
        Array(UnsafeBufferPointer(start: base, count: count))
    }

    /// The bytes written so far, as `Data`.
    public var data: Data {
        Data(bytes: base, count: count)
    }

    /// Calls `body` with the bytes written so far, without copying them.
    public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Makes room for at least `count` bytes in all, so that a long record is not copied as it grows.
    public mutating func reserveCapacity(_ count: Int) {
        if count > capacity { grow(toHold: count) }
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private mutating func ensure(_ extra: Int) {
        if count &+ extra > capacity { grow(toHold: count + extra) }
    }

    @inline(never)
    private mutating func grow(toHold needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Appends one byte.
    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        ensure(1)
        base[count] = byte
        count &+= 1
    }

    /// Appends `buffer`'s bytes.
    @inline(__always)
    private mutating func put(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let source = buffer.baseAddress else { return }
        ensure(buffer.count)
        (base + count).initialize(from: source, count: buffer.count)
        count &+= buffer.count
    }

    /// Appends an ASCII literal.
    @inline(__always)
    private mutating func put(_ literal: StaticString) {
        put(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends `bytes`.
    @inline(__always)
    private mutating func put(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { put($0) }
    }

    /// `{`.
    public mutating func beginObject() {
        comma()
        put(UInt8(ascii: "{"))
        needsComma = false
    }

    /// `}`.
    public mutating func endObject() {
        put(UInt8(ascii: "}"))
        needsComma = true
    }

    /// `[`.
    public mutating func beginArray() {
        comma()
        put(UInt8(ascii: "["))
        needsComma = false
    }

    /// `]`.
    public mutating func endArray() {
        put(UInt8(ascii: "]"))
        needsComma = true
    }

    /// An object key; the value follows.
    public mutating func key(_ name: String) {
        comma()
        appendString(name)
        put(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Elements of the array being written that another writer wrote (values separated by commas, as a
    /// fresh writer writes them one after the other): how the parts of a long array written on several cores
    /// join. Nothing is written for no bytes. Returns where the bytes begin in this writer.
    @discardableResult
    mutating func elements(_ bytes: [UInt8]) -> Int {
        guard !bytes.isEmpty else { return count }
        comma()
        let start = count
        put(bytes)
        needsComma = true
        return start
    }

    /// How many bytes were written so far: where the next value's bytes begin (after its comma, if any).
    package var position: Int { count }

    /// A value another writer wrote, copied as it is: a row's `values` object as a journal record spelled it,
    /// which a checkpoint right after the save copies instead of writing the same values again.
    package mutating func encodedValue(_ bytes: UnsafeRawBufferPointer) {
        comma()
        put(
            UnsafeBufferPointer(
                start: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), count: bytes.count))
        needsComma = true
    }

    /// An object key that is plain ASCII needing no escape (a format's own field names): copied without
    /// looking for characters to escape.
    package mutating func key(literal name: StaticString) {
        comma()
        put(UInt8(ascii: "\""))
        put(name)
        put(UInt8(ascii: "\""))
        put(UInt8(ascii: ":"))
        needsComma = false
    }

    /// An object key spelled once and written many times, such as a schema's attribute names.
    public struct EncodedKey: Sendable {
        /// `"name":`, escaped.
        fileprivate let bytes: [UInt8]

        /// Spells `name` as a key.
        public init(_ name: String) {
            var writer = JSONWriter()
            writer.key(name)
            bytes = writer.bytes
        }
    }

    /// An object key spelled beforehand; the value follows.
    public mutating func key(_ key: EncodedKey) {
        comma()
        put(key.bytes)
        needsComma = false
    }

    /// A string value.
    public mutating func string(_ value: String) {
        comma()
        appendString(value)
        needsComma = true
    }

    /// An integer value.
    public mutating func integer(_ value: Int64) {
        comma()
        appendDigits(value)
        needsComma = true
    }

    /// The decimal digits of `value`, written straight into the bytes (no intermediate `String`).
    private mutating func appendDigits(_ value: Int64) {
        ensure(20)
        if value < 0 {
            base[count] = UInt8(ascii: "-")
            count &+= 1
        }
        // The magnitude as unsigned, so that `Int64.min` has one too.
        var magnitude = value.magnitude
        var digits = 1
        var limit: UInt64 = 10
        while digits < 20, magnitude >= limit {
            digits += 1
            limit = limit &* 10
        }
        var position = count + digits
        count = position
        repeat {
            position -= 1
            base[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
    }

    /// A finite double: integral values as integers (`10`, `-0`), as `JSONEncoder` writes them, others in
    /// Swift's shortest round-trip form (valid JSON either way).
    public mutating func double(_ value: Double) {
        comma()
        if value.rounded(.towardZero) == value, abs(value) < 9_007_199_254_740_992 {
            if value == 0 && value.sign == .minus {
                put("-0")
            } else {
                appendDigits(Int64(value))
            }
        } else {
            var text = value.description
            text.withUTF8 { put($0) }
        }
        needsComma = true
    }

    /// A Boolean value.
    public mutating func bool(_ value: Bool) {
        comma()
        if value { put("true") } else { put("false") }
        needsComma = true
    }

    /// `null`.
    public mutating func null() {
        comma()
        put("null")
        needsComma = true
    }

    private mutating func comma() {
        if needsComma { put(UInt8(ascii: ",")) }
    }

    private mutating func appendString(_ value: String) {
        // Most strings need no escape: copy them whole.
        var value = value
        let copied = value.withUTF8 { utf8 in
            guard !Self.needsEscaping(utf8) else { return false }
            ensure(utf8.count + 2)
            base[count] = UInt8(ascii: "\"")
            count &+= 1
            put(utf8)
            base[count] = UInt8(ascii: "\"")
            count &+= 1
            return true
        }
        if copied { return }
        put(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): put("\\\"")
            case UInt8(ascii: "\\"): put("\\\\")
            case 0x0A: put("\\n")
            case 0x0D: put("\\r")
            case 0x09: put("\\t")
            case 0x08: put("\\b")
            case 0x0C: put("\\f")
            case 0..<0x20:
                let digits: StaticString = "0123456789abcdef"
                put("\\u00")
                put(digits.utf8Start[Int(byte >> 4)])
                put(digits.utf8Start[Int(byte & 0xF)])
            default: put(byte)
            }
        }
        put(UInt8(ascii: "\""))
    }

    /// Whether `bytes` hold a control character, `"` or `\\`: what a JSON string must escape. Eight bytes at a
    /// time (``ByteWord``), then the rest one by one: every string a store writes is scanned, and a byte at a
    /// time the scan was the writer's largest cost (a UUID's 36 bytes, 36 comparisons of three).
    package static func needsEscaping(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var offset = 0
        while offset &+ 8 <= bytes.count {
            let word = ByteWord(base, at: offset)
            if word.hasByte(below: 0x20) || word.hasByte(equalTo: UInt8(ascii: "\""))
                || word.hasByte(equalTo: UInt8(ascii: "\\"))
            {
                return true
            }
            offset &+= 8
        }
        while offset < bytes.count {
            let byte = base[offset]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
            offset &+= 1
        }
        return false
    }

    /// A snapshot value in its documented one-key form (see `SnapshotValue`).
    public mutating func value(_ value: SnapshotValue) {
        switch value {
        case .null: null()
        case .string(let text): single("string") { $0.string(text) }
        case .integer(let number): single("integer") { $0.integer(number) }
        case .double(let number):
            single("double") { writer in
                if number.isNaN {
                    writer.string("nan")
                } else if number.isInfinite {
                    writer.string(number > 0 ? "inf" : "-inf")
                } else {
                    writer.double(number)
                }
            }
        case .bool(let flag): single("bool") { $0.bool(flag) }
        case .date(let date): single("date") { $0.double(date.timeIntervalSinceReferenceDate) }
        case .data(let data): single("data") { $0.string(data.base64EncodedString()) }
        case .uuid(let uuid): single("uuid") { $0.string(uuid.uuidString) }
        case .identifier(let id): single("identifier") { $0.identifier(id) }
        case .array(let values):
            single("array") { writer in
                writer.beginArray()
                for element in values { writer.value(element) }
                writer.endArray()
            }
        }
    }

    /// A persistent identifier: `{"entity":…,"key":…,"store":…}`.
    public mutating func identifier(_ id: PersistentIdentifier) {
        beginObject()
        key(literal: "entity")
        string(id.entityName)
        key(literal: "key")
        string(id.primaryKey)
        if let store = id.storeIdentifier {
            key(literal: "store")
            string(store)
        }
        endObject()
    }

    /// Where this writer last spelled an identifier's fixed parts for one entity and store: the bytes of
    /// `{"entity":…,"key":` before the key and of `,"store":…}` after it, copied from there for the next
    /// identifier that names the same ones (no allocation, no escaping scan).
    package struct IdentifierSpelling {
        let entityName: String
        let storeIdentifier: String?
        fileprivate let prefix: Range<Int>
        fileprivate let suffix: Range<Int>

        func spells(_ id: PersistentIdentifier) -> Bool {
            id.entityName == entityName && id.storeIdentifier == storeIdentifier
        }
    }

    /// ``identifier(_:)``, copying the entity and store from where `spelling` says this writer last spelled
    /// them, or spelling them and noting where when `id` names others: a transaction's changes are mostly of
    /// one entity, and their names need escaping once.
    package mutating func identifier(
        _ id: PersistentIdentifier, reusing spelling: inout IdentifierSpelling?
    ) {
        comma()
        guard let known = spelling, known.spells(id) else {
            let prefixStart = count
            put(UInt8(ascii: "{"))
            needsComma = false
            key(literal: "entity")
            string(id.entityName)
            key(literal: "key")
            let prefixEnd = count
            appendString(id.primaryKey)
            let suffixStart = count
            if let store = id.storeIdentifier {
                needsComma = true
                key(literal: "store")
                string(store)
            }
            put(UInt8(ascii: "}"))
            spelling = IdentifierSpelling(
                entityName: id.entityName, storeIdentifier: id.storeIdentifier,
                prefix: prefixStart..<prefixEnd,
                suffix: suffixStart..<count)
            needsComma = true
            return
        }
        copyWritten(known.prefix)
        appendString(id.primaryKey)
        copyWritten(known.suffix)
        needsComma = true
    }

    /// Appends a copy of bytes this writer wrote before, at `range`.
    private mutating func copyWritten(_ range: Range<Int>) {
        ensure(range.count)
        (base + count).update(from: base + range.lowerBound, count: range.count)
        count &+= range.count
    }

    /// Attribute values by name, keys sorted.
    public mutating func values(_ values: [String: SnapshotValue]) {
        beginObject()
        if values.count < 2 {
            // Nothing to sort (a tombstone often keeps one value): no sorted copy.
            for (name, member) in values {
                key(name)
                value(member)
            }
        } else if values.count == lastSortedNames.count, writeInLastOrder(values) {
            // Written: the same names as the last dictionary.
        } else {
            let sorted = values.sorted(by: { $0.key < $1.key })
            lastSortedNames = sorted.map(\.key)
            lastSortedKeys = []
            for (name, member) in sorted {
                key(name)
                value(member)
            }
        }
        endObject()
    }

    /// Writes `values` (as many as ``lastSortedNames``) in the order of ``lastSortedNames`` if they have those
    /// names, and returns whether it did; writes nothing otherwise. Each of the dictionary's names is found
    /// in the short list by comparing strings (a short name compares as two words), which costs less than
    /// sorting a copy of the pairs or hashing each name to look it up.
    private mutating func writeInLastOrder(_ values: [String: SnapshotValue]) -> Bool {
        let names = lastSortedNames
        typealias Position = Dictionary<String, SnapshotValue>.Index
        return withUnsafeTemporaryAllocation(of: Position.self, capacity: names.count) { slots in
            // Every slot initialised, so that each is assigned (not initialised twice) and released once.
            slots.initialize(repeating: values.startIndex)
            defer { slots.deinitialize() }
            var position = values.startIndex
            while position != values.endIndex {
                let name = values[position].key
                // The dictionary's names are distinct and as many as the list's: if each is in the list, the
                // two hold the same names.
                guard let slot = names.firstIndex(of: name) else { return false }
                slots[slot] = position
                values.formIndex(after: &position)
            }
            if lastSortedKeys.isEmpty { lastSortedKeys = names.map(EncodedKey.init) }
            for slot in names.indices {
                key(lastSortedKeys[slot])
                value(values[slots[slot]].value)
            }
            return true
        }
    }

    /// `{"name":` then the value `body` writes, then `}`: how a `SnapshotValue` is tagged with its kind.
    private mutating func single(_ name: StaticString, _ body: (inout JSONWriter) -> Void) {
        comma()
        put(UInt8(ascii: "{"))
        put(UInt8(ascii: "\""))
        // The tag names are plain ASCII: no escaping to look for.
        put(name)
        put(UInt8(ascii: "\""))
        put(UInt8(ascii: ":"))
        needsComma = false
        body(&self)
        endObject()
    }
}
