import Testing

@testable import DataStoreKit

/// The checksum every record carries: the standard check value, and the eight-bytes-at-a-time computation
/// equal to the byte-at-a-time one for every length and alignment.
@Suite struct CRC32Tests {
    @Test func theStandardCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
        #expect(CRC32.checksum(AnySequence(Array("123456789".utf8))) == 0xCBF4_3926)
    }

    /// Checksums of two parts combine into the checksum of the whole, at every split of random bytes.
    @Test func checksumsOfPartsCombineIntoTheWhole() {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 2, 5, 64, 1_000, 70_001] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var splits = [0, length / 2, length]
            if length > 1 { splits += (0..<20).map { _ in Int.random(in: 0...length, using: &generator) } }
            for split in splits {
                let first = CRC32.checksum(bytes[..<split])
                let second = CRC32.checksum(bytes[split...])
                #expect(
                    CRC32.combine(first, second, secondLength: length - split) == CRC32.checksum(bytes),
                    "length \(length), split \(split)")
            }
        }
    }

    @Test func slicingAgreesWithTheBytewiseComputation() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        let bytes = (0..<4_200).map { _ in next() }
        for start in 0..<9 {
            for length in [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1_000, 4_096] {
                let slice = Array(bytes[start..<(start + length)])
                // Through a buffer that starts at an odd address too, so unaligned loads are exercised.
                let sliced = bytes.withUnsafeBytes {
                    CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[start..<(start + length)]))
                }
                #expect(sliced == CRC32.checksumBytewise(slice), "start \(start), length \(length)")
            }
        }
    }
}
