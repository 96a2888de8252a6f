import Foundation
import Testing

@testable import DataStoreCore

/// Fresh identifiers: unresolved, with short random keys drawn without a system call per key.
@Suite struct PersistentIdentifierTests {
    /// A new model's key: 15 characters of the URL-safe Base64 alphabet, each of its 90 bits drawn.
    @Test func randomKeysAreFifteenBase64URLCharactersEveryBitDrawn() {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        let keys = (0..<10_000).map { _ in PersistentIdentifier().primaryKey }
        #expect(Set(keys).count == keys.count)
        #expect(keys.allSatisfy { $0.utf8.count == PersistentIdentifier.randomKeyLength })
        var seenOne = [Bool](repeating: false, count: 90)
        var seenZero = [Bool](repeating: false, count: 90)
        for key in keys {
            for (position, byte) in key.utf8.enumerated() {
                guard let sextet = alphabet.firstIndex(of: byte) else {
                    Issue.record("\(key): '\(Character(Unicode.Scalar(byte)))' is not in the alphabet")
                    return
                }
                for bit in 0..<6 {
                    if sextet >> bit & 1 == 1 {
                        seenOne[position * 6 + bit] = true
                    } else {
                        seenZero[position * 6 + bit] = true
                    }
                }
            }
        }
        #expect(seenOne.allSatisfy { $0 } && seenZero.allSatisfy { $0 })
        #expect(PersistentIdentifier().isResolved == false)
    }

    /// Equality compares the key first, then the entity and store: each part must still tell two identifiers
    /// apart, and equal ones hash alike (a dictionary finds an identifier by one spelled afresh).
    @Test func identifiersAreEqualOnlyWhenStoreEntityAndKeyAre() {
        let id = PersistentIdentifier(storeIdentifier: "trips", entityName: "Trip", primaryKey: "k1")
        let others = [
            PersistentIdentifier(storeIdentifier: "trips", entityName: "Trip", primaryKey: "k2"),
            PersistentIdentifier(storeIdentifier: "trips", entityName: "Stay", primaryKey: "k1"),
            PersistentIdentifier(storeIdentifier: "items", entityName: "Trip", primaryKey: "k1"),
            PersistentIdentifier(storeIdentifier: nil, entityName: "Trip", primaryKey: "k1"),
        ]
        for other in others {
            #expect(id != other)
            #expect(other != id)
        }
        let spelledAgain = PersistentIdentifier(
            storeIdentifier: String("trips".reversed().reversed()), entityName: "Tr" + "ip",
            primaryKey: ["k", "1"].joined())
        #expect(id == spelledAgain)
        #expect(id.hashValue == spelledAgain.hashValue)
        let table = Dictionary(uniqueKeysWithValues: ([id] + others).enumerated().map { ($1, $0) })
        #expect(table[spelledAgain] == 0)
        #expect(table.count == 5)
    }

    /// The store is held as an enum, not a `String?` (see `PersistentIdentifier.store`): an unresolved identifier
    /// and one of a store named `""` stay apart, setting the store works both ways, the Codable form is
    /// unchanged, and an identifier is still three strings' room (every row and change holds one).
    @Test func theStorePartKeepsUnresolvedApartFromAnEmptyName() throws {
        var id = PersistentIdentifier(storeIdentifier: "", entityName: "Trip", primaryKey: "k1")
        let unresolved = PersistentIdentifier(storeIdentifier: nil, entityName: "Trip", primaryKey: "k1")
        #expect(id.isResolved && id.storeIdentifier == "")
        #expect(!unresolved.isResolved && unresolved.storeIdentifier == nil)
        #expect(id != unresolved && (unresolved < id) && !(id < unresolved))
        id.storeIdentifier = nil
        #expect(id == unresolved)
        id.storeIdentifier = "trips"
        #expect(id.storeIdentifier == "trips" && id.isResolved)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(
            String(decoding: try encoder.encode(id), as: UTF8.self)
                == #"{"entity":"Trip","key":"k1","store":"trips"}"#)
        #expect(
            String(decoding: try encoder.encode(unresolved), as: UTF8.self)
                == #"{"entity":"Trip","key":"k1"}"#)
        for original in [id, unresolved] {
            let decoded = try JSONDecoder().decode(
                PersistentIdentifier.self, from: try encoder.encode(original))
            #expect(decoded == original && decoded.storeIdentifier == original.storeIdentifier)
        }
        #expect(MemoryLayout<PersistentIdentifier>.size == 3 * MemoryLayout<String>.size)
    }
}
