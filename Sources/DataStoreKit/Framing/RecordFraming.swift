public import DataStoreCore
public import Foundation

/// The line format both file backends write: one JSON record per line, each with a CRC-32.
///
/// A framed record is itself a JSON object, so files stay readable with `cat` and `jq`:
///
/// ```
/// {"crc":"1a2b3c4d","record":{…}}\n
/// ```
///
/// The checksum covers exactly the bytes of the `record` value as written. The prefix has a fixed length
/// (27 bytes), so a reader finds the record bytes without re-encoding them.
public enum RecordFraming {
    static let prefixStart = Array(#"{"crc":""#.utf8)
    static let prefixEnd = Array(#"","record":"#.utf8)
    static let suffix = Array("}\n".utf8)
    /// The length of `{"crc":"XXXXXXXX","record":`.
    public static let prefixLength = prefixStart.count + 8 + prefixEnd.count

    /// One line holding `record`.
    public static func frame(_ record: Data) -> Data {
        record.withUnsafeBytes { frame($0) }
    }

    /// One line holding the record in `record`'s bytes (a writer's, without copying them first).
    public static func frame(_ record: UnsafeRawBufferPointer) -> Data {
        frame([record], checksum: CRC32.checksum(record))
    }

    /// One line holding the record made of `parts` one after the other, whose CRC-32 the caller computed
    /// (from the parts' own, with ``CRC32/combine(_:_:secondLength:)``).
    public static func frame(_ parts: [UnsafeRawBufferPointer], checksum: UInt32) -> Data {
        var line = Data(capacity: prefixLength + parts.reduce(0) { $0 + $1.count } + suffix.count)
        line.append(contentsOf: prefixStart)
        line.append(contentsOf: hex(checksum))
        line.append(contentsOf: prefixEnd)
        for part in parts { line.append(contentsOf: part) }
        line.append(contentsOf: suffix)
        return line
    }

    /// How a file of records may end.
    public enum Ending: Sendable {
        /// With its last record, or with an incomplete one (a torn write).
        case appended
        /// As `appended`, or followed by *free space*: zero bytes written ahead of the records, so that writing a
        /// record into them does not change the file's size and an `fdatasync` has no metadata to flush. A
        /// zero byte where a line starts begins the free space (a record never holds a zero byte); a line
        /// holding a zero byte is a write into it that a crash cut short, unless a whole record follows it.
        case preallocated
    }

    /// Reads, from a record's payload, the file offset where the write that appended it began (the records one
    /// write appended together share it), or `nil` when the record does not say (a record written alone, or
    /// by an earlier version). With it, whole records after a hole that all belong to the write the hole is in
    /// are that write's, torn by a power loss that kept some of its pages and not others: a torn tail, not
    /// damage.
    public typealias WriteStart = @Sendable (Data) -> Int64?

    /// A record found in a file: where its line starts and its bytes.
    public struct Record: Sendable {
        /// The byte offset of the line in the file.
        public var offset: Int64
        /// The record's JSON bytes.
        public var payload: Data

        /// A record at `offset` holding `payload`.
        public init(offset: Int64, payload: Data) {
            self.offset = offset
            self.payload = payload
        }
    }

    /// What a parse of a record file found.
    public struct ParseResult: Sendable {
        /// The whole, valid records, in order.
        public var records: [Record]
        /// The file offset just past the last whole record: where the next record goes.
        public var endOfValidData: Int64
        /// Bytes after the last whole record that do not form one: a torn write (or one in progress).
        public var hasTornTail: Bool
        /// Whether the bytes end in free space (``Ending/preallocated`` only): nothing after
        /// ``endOfValidData`` but zeros, or a torn write followed by them. When `false`, the bytes may have
        /// ended inside a record that continues after them.
        public var reachedFreeSpace: Bool = false
    }

    /// Splits `bytes`, which start at file offset `start`, into framed records.
    ///
    /// Only an *incomplete* last line (no terminating newline: what a crash in the middle of a write leaves)
    /// is a torn tail, to be cut back. A complete line whose framing or checksum is wrong is damage wherever
    /// it is, the last line included: it throws `DataStoreError/corruptStoreFile(path:offset:reason:)` with
    /// the line's offset, and the caller leaves the file as it is. With ``Ending/preallocated``, zeros after
    /// the last record are free space, and a line holding zeros with no whole record after it is a torn tail.
    public static func parse(
        _ bytes: Data, startingAt start: Int64, path: String, ending: Ending = .appended,
        writeStart: WriteStart? = nil
    ) throws(DataStoreError) -> ParseResult {
        let scanned = scan(bytes, startingAt: start, ending: ending, writeStart: writeStart)
        if let damage = scanned.damage {
            throw .corruptStoreFile(
                path: path, offset: damage,
                reason: "a complete record's framing or checksum does not match its bytes")
        }
        return scanned.result
    }

    /// The records before the first damaged line, and the offset of that line if there is one.
    static func scan(
        _ bytes: Data, startingAt start: Int64, ending: Ending = .appended, writeStart: WriteStart? = nil
    ) -> (
        result: ParseResult, damage: Int64?
    ) {
        // Over the raw bytes: `Data`'s generic indexing costs more per byte than the checksum does.
        bytes.withUnsafeBytes { buffer in
            var records: [Record] = []
            var lineStart = 0
            func stop(_ offset: Int64, torn: Bool, damage: Int64? = nil, free: Bool = false) -> (
                ParseResult, Int64?
            ) {
                (
                    ParseResult(
                        records: records, endOfValidData: offset, hasTornTail: torn, reachedFreeSpace: free),
                    damage
                )
            }
            while lineStart < buffer.count {
                let offset = start + Int64(lineStart)
                let rest = UnsafeRawBufferPointer(rebasing: buffer[lineStart...])
                if ending == .preallocated && rest[0] == 0 {
                    return stopAtFreeSpace(rest, offset: offset, writeStart: writeStart, stop)
                }
                guard let newline = firstNewline(rest) else {
                    let free = ending == .preallocated && rest.contains(0)
                    return stop(offset, torn: true, free: free)
                }
                let line = UnsafeRawBufferPointer(rebasing: rest[...newline])
                guard let payload = payload(ofLine: line) else {
                    if ending == .preallocated && line.contains(0) {
                        return stopAtFreeSpace(rest, offset: offset, writeStart: writeStart, stop)
                    }
                    return stop(offset, torn: false, damage: offset)
                }
                records.append(Record(offset: offset, payload: payload))
                lineStart += newline + 1
            }
            return stop(start + Int64(buffer.count), torn: false)
        }
    }

    /// Where zeros begin at `offset` (or in the line there): free space if nothing but zeros follows; a torn
    /// write if what does follow holds no whole record, or only whole records of the write the hole is in
    /// (`writeStart` says so: that write never completed); damage otherwise (a record after a hole was
    /// written, and perhaps acknowledged, after the bytes the hole replaced).
    private static func stopAtFreeSpace(
        _ rest: UnsafeRawBufferPointer, offset: Int64, writeStart: WriteStart?,
        _ stop: (Int64, Bool, Int64?, Bool) -> (ParseResult, Int64?)
    ) -> (ParseResult, Int64?) {
        guard let written = firstNonZero(rest) else { return stop(offset, false, nil, true) }
        let after = UnsafeRawBufferPointer(rebasing: rest[written...])
        guard wholeLineFollows(after) else { return stop(offset, true, nil, true) }
        if let writeStart,
            wholeLines(after).allSatisfy({ payload in writeStart(payload).map { $0 <= offset } ?? false })
        {
            return stop(offset, true, nil, true)
        }
        return stop(offset, false, offset, false)
    }

    /// The index of the first byte of `bytes` that is not zero, if there is one.
    ///
    /// Free space runs to megabytes, and every open of a preallocated file scans it: a page at a time with
    /// `memcmp`, not a byte at a time (which costs a function call per byte in a debug build).
    static func firstNonZero(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var start = 0
        while start < bytes.count {
            let length = min(zeroPage.count, bytes.count - start)
            let allZero = zeroPage.withUnsafeBytes { memcmp(base + start, $0.baseAddress!, length) == 0 }
            if !allZero { return (start..<start + length).first { bytes[$0] != 0 } }
            start += length
        }
        return nil
    }

    private static let zeroPage = [UInt8](repeating: 0, count: 4096)

    /// The index of the first newline in `bytes`, if there is one.
    ///
    /// With `memchr`, many bytes at a time: every record of every file read is found this way, and the generic
    /// `firstIndex(of:)` cost about as much per byte as the checksum (a checkpoint scans the whole journal).
    static func firstNewline(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress,
            let found = memchr(base, Int32(UInt8(ascii: "\n")), bytes.count)
        else { return nil }
        return UnsafeRawPointer(found) - base
    }

    /// The payloads of the whole, valid lines in `bytes` that start after a newline or a zero byte.
    static func wholeLines(_ bytes: UnsafeRawBufferPointer) -> [Data] {
        var payloads: [Data] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            defer { index += 1 }
            guard bytes[index] == UInt8(ascii: "{"),
                index == bytes.startIndex || bytes[index - 1] == 0
                    || bytes[index - 1] == UInt8(ascii: "\n")
            else { continue }
            let rest = UnsafeRawBufferPointer(rebasing: bytes[index...])
            guard let newline = firstNewline(rest),
                let payload = payload(ofLine: UnsafeRawBufferPointer(rebasing: rest[...newline]))
            else { continue }
            payloads.append(payload)
            index += newline
        }
        return payloads
    }

    /// Whether a whole, valid line starts in `bytes` after a newline or a zero byte.
    static func wholeLineFollows(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for index in bytes.indices where bytes[index] == UInt8(ascii: "{") {
            guard index == 0 || bytes[index - 1] == 0 || bytes[index - 1] == UInt8(ascii: "\n") else {
                continue
            }
            let rest = UnsafeRawBufferPointer(rebasing: bytes[index...])
            if let newline = firstNewline(rest),
                payload(ofLine: UnsafeRawBufferPointer(rebasing: rest[...newline])) != nil
            {
                return true
            }
        }
        return false
    }

    /// The record bytes of one line (ending in `\n`), or `nil` if its framing or checksum is wrong.
    static func payload(ofLine bytes: UnsafeRawBufferPointer) -> Data? {
        guard bytes.count > prefixLength + suffix.count else { return nil }
        let crcStart = prefixStart.count
        guard bytes[0..<crcStart].elementsEqual(prefixStart),
            bytes[(crcStart + 8)..<prefixLength].elementsEqual(prefixEnd),
            bytes[(bytes.count - suffix.count)...].elementsEqual(suffix),
            let expected = UInt32(
                String(
                    decoding: UnsafeRawBufferPointer(rebasing: bytes[crcStart..<(crcStart + 8)]),
                    as: UTF8.self),
                radix: 16)
        else { return nil }
        let payload = UnsafeRawBufferPointer(rebasing: bytes[prefixLength..<(bytes.count - suffix.count)])
        guard CRC32.checksum(payload) == expected else { return nil }
        return Data(payload)
    }

    static func hex(_ value: UInt32) -> [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        return (0..<8).reversed().map { digits[Int((value >> (UInt32($0) * 4)) & 0xF)] }
    }
}
