import Foundation
import Testing

@testable import DataStoreCore

/// The identifiers drawn on hot paths are well-formed version 4 UUIDs, and new each time.
@Suite struct RandomUUIDTests {
    @Test func drawnIdentifiersAreDistinctVersion4UUIDs() {
        let drawn = (0..<10_000).map { _ in RandomUUID.make() }
        #expect(Set(drawn).count == drawn.count)
        for id in drawn.prefix(1_000) {
            #expect(id.uuid.6 >> 4 == 4, "\(id): not version 4")
            #expect(id.uuid.8 >> 6 == 0b10, "\(id): not the RFC 4122 variant")
        }
        // Every bit outside the version and variant varies across draws.
        var seenOne = [Bool](repeating: false, count: 128)
        var seenZero = [Bool](repeating: false, count: 128)
        for id in drawn {
            withUnsafeBytes(of: id.uuid) { bytes in
                for bit in 0..<128 {
                    if bytes[bit / 8] >> (bit % 8) & 1 == 1 {
                        seenOne[bit] = true
                    } else {
                        seenZero[bit] = true
                    }
                }
            }
        }
        let fixed = Set([52, 53, 54, 55, 70, 71])  // the version nibble of byte 6, the variant bits of byte 8
        #expect((0..<128).filter { !fixed.contains($0) }.allSatisfy { seenOne[$0] && seenZero[$0] })
    }

    @Test func editingStatesUseThem() {
        #expect(EditingState().id != EditingState().id)
        #expect(EditingState().id.uuid.6 >> 4 == 4)
    }
}
