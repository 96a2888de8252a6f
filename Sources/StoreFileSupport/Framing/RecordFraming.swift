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

    /// A record found in a file: where its line starts and its bytes.
    public struct Record: Sendable {
        /// The byte offset of the line in the file.
        public var offset: Int64
        /// The record's JSON bytes.
        public var payload: Data
    }

    /// What ``parse(_:startingAt:path:)`` found.
    public struct ParseResult: Sendable {
        /// The whole, valid records, in order.
        public var records: [Record]
        /// The file offset just past the last whole record: where the next record goes.
        public var endOfValidData: Int64
        /// Bytes after the last whole record that do not form one: a torn write (or one in progress).
        public var hasTornTail: Bool
    }

    /// Splits `bytes`, which start at file offset `start`, into framed records.
    ///
    /// Only an *incomplete* last line (no terminating newline: what a crash in the middle of a write leaves)
    /// is a torn tail, to be cut back. A complete line whose framing or checksum is wrong is damage wherever
    /// it is, the last line included: it throws ``DataStoreError/corruptStoreFile(path:offset:reason:)`` with
    /// the line's offset, and the caller leaves the file as it is.
    public static func parse(_ bytes: Data, startingAt start: Int64, path: String) throws(DataStoreError)
        -> ParseResult
    {
        let scanned = scan(bytes, startingAt: start)
        if let damage = scanned.damage {
            throw .corruptStoreFile(
                path: path, offset: damage,
                reason: "a complete record's framing or checksum does not match its bytes")
        }
        return ParseResult(
            records: scanned.records, endOfValidData: scanned.endOfValidData, hasTornTail: scanned.hasTornTail
        )
    }

    /// The records before the first damaged line, the offset of that line if there is one, and whether the
    /// bytes end in an incomplete line.
    static func scan(_ bytes: Data, startingAt start: Int64) -> (
        records: [Record], endOfValidData: Int64, damage: Int64?, hasTornTail: Bool
    ) {
        // Over the raw bytes: `Data`'s generic indexing costs more per byte than the checksum does.
        bytes.withUnsafeBytes { buffer in
            var records: [Record] = []
            var lineStart = 0
            while lineStart < buffer.count {
                let offset = start + Int64(lineStart)
                let rest = UnsafeRawBufferPointer(rebasing: buffer[lineStart...])
                guard let newline = rest.firstIndex(of: UInt8(ascii: "\n")) else {
                    return (records, offset, nil, true)
                }
                guard let payload = payload(ofLine: UnsafeRawBufferPointer(rebasing: rest[...newline])) else {
                    return (records, offset, offset, false)
                }
                records.append(Record(offset: offset, payload: payload))
                lineStart += newline + 1
            }
            return (records, start + Int64(buffer.count), nil, false)
        }
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
