/// CRC-32 (IEEE 802.3, the zlib polynomial), for record checksums.
///
/// Computed sixteen bytes at a time ("slicing-by-16": sixteen tables, each advancing the remainder by one more
/// byte), since every record written and read is checksummed whole: a byte at a time cost a time-series save
/// of 1,000 samples about a tenth of its time, and eight at a time was still 4% of the instructions of a JSON
/// store's bulk insert and its checkpoint.
public enum CRC32 {
    /// Sixteen tables of 256 entries, one after the other: table 0 is the classic byte-at-a-time table, table
    /// `k` the remainder of a byte followed by `k` zero bytes.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 16 * 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 {
                value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
            }
            tables[index] = value
        }
        for slice in 1..<16 {
            for index in 0..<256 {
                let previous = tables[(slice - 1) * 256 + index]
                tables[slice * 256 + index] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()

    /// The checksum of two byte strings one after the other, from the checksum of each and the second's length
    /// (zlib's `crc32_combine`): following the first string with `secondLength` zero bytes multiplies its
    /// remainder by `x^(8·secondLength)` modulo the polynomial, and the second's checksum is added. Lets parts
    /// of a record be checksummed apart, such as a time-series save's samples on several cores.
    public static func combine(_ first: UInt32, _ second: UInt32, secondLength: Int) -> UInt32 {
        guard secondLength > 0 else { return first }
        // x^(8n) = the product of x^(2^k) over the bits k of 8n; `powersOfX[k]` is x^(2^k) mod the polynomial.
        var power: UInt32 = 1 << 31  // x^0, bit-reflected
        var bits = UInt64(secondLength) << 3
        var k = 0
        while bits != 0 {
            if bits & 1 == 1 { power = multiply(powersOfX[k & 31], power) }
            bits >>= 1
            k += 1
        }
        return multiply(power, first) ^ second
    }

    /// `x^(2^k)` modulo the polynomial for k from 0 to 31 (the powers repeat with period 32 beyond).
    private static let powersOfX: [UInt32] = {
        var powers: [UInt32] = [1 << 30]  // x^1, bit-reflected
        for _ in 1..<32 { powers.append(multiply(powers[powers.count - 1], powers[powers.count - 1])) }
        return powers
    }()

    /// `a(x) · b(x)` modulo the polynomial, both bit-reflected.
    private static func multiply(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var product: UInt32 = 0
        var b = b
        var mask: UInt32 = 1 << 31
        while mask != 0 {
            if a & mask != 0 {
                product ^= b
                if a & (mask - 1) == 0 { break }
            }
            mask >>= 1
            b = b & 1 == 1 ? (b >> 1) ^ 0xEDB8_8320 : b >> 1
        }
        return product
    }

    /// The checksum of `bytes`.
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        if let crc = bytes.withContiguousStorageIfAvailable({ checksum(UnsafeRawBufferPointer($0)) }) {
            return crc
        }
        return Array(bytes).withUnsafeBytes { checksum($0) }
    }

    /// The checksum of the bytes in `buffer`: the path that file reads take.
    public static func checksum(_ buffer: UnsafeRawBufferPointer) -> UInt32 {
        tables.withUnsafeBufferPointer { tables in
            var crc: UInt32 = 0xFFFF_FFFF
            var offset = 0
            let count = buffer.count
            while count - offset >= 16 {
                // The first word carries the remainder; each byte then goes through the table for the number
                // of bytes that follow it in the block.
                let first =
                    UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) ^ crc
                let second = UInt32(
                    littleEndian: buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
                let third = UInt32(
                    littleEndian: buffer.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self))
                let fourth = UInt32(
                    littleEndian: buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                crc =
                    lookup(tables, 15, first) ^ lookup(tables, 11, second) ^ lookup(tables, 7, third)
                    ^ lookup(tables, 3, fourth)
                offset += 16
            }
            if count - offset >= 8 {
                let low =
                    UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) ^ crc
                let high = UInt32(
                    littleEndian: buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
                crc = lookup(tables, 7, low) ^ lookup(tables, 3, high)
                offset += 8
            }
            while offset < count {
                crc = tables[Int((crc ^ UInt32(buffer[offset])) & 0xFF)] ^ (crc >> 8)
                offset += 1
            }
            return crc ^ 0xFFFF_FFFF
        }
    }

    /// The four bytes of `word` (least significant first) through tables `highest`, `highest - 1`, … `highest -
    /// 3`: the first byte of the word has the most bytes after it.
    @inline(__always)
    private static func lookup(_ tables: UnsafeBufferPointer<UInt32>, _ highest: Int, _ word: UInt32)
        -> UInt32
    {
        tables[highest &* 256 &+ Int(word & 0xFF)] ^ tables[(highest &- 1) &* 256 &+ Int((word >> 8) & 0xFF)]
            ^ tables[(highest &- 2) &* 256 &+ Int((word >> 16) & 0xFF)]
            ^ tables[(highest &- 3) &* 256 &+ Int(word >> 24)]
    }

    /// The classic byte-at-a-time computation: what the tests check the sliced one against.
    static func checksumBytewise(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = tables[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }
}
