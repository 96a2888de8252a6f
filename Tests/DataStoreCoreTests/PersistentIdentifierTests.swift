import Foundation
import Testing

@testable import DataStoreCore

/// Fresh identifiers: random version 4 UUIDs, drawn without Foundation's `/dev/urandom` read per call.
@Suite struct PersistentIdentifierTests {
    @Test func freshIdentifiersAreDistinctVersionFourUUIDs() throws {
        let keys = (0..<10_000).map { _ in PersistentIdentifier().primaryKey }
        #expect(Set(keys).count == keys.count)
        for key in keys.prefix(100) {
            let uuid = try #require(UUID(uuidString: key))
            let bytes = uuid.uuid
            #expect(bytes.6 >> 4 == 4, "version nibble of \(key)")
            #expect(bytes.8 >> 6 == 0b10, "variant bits of \(key)")
        }
        #expect(PersistentIdentifier().isResolved == false)
    }
}
