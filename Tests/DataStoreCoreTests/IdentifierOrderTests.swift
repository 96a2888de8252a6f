import DataStoreCore
import StoreTestSupport
import Testing

@testable import DataStoreKit

/// Rows in identifier order without comparing identifiers through `<` (see `IdentifierOrder`): the order must
/// be `<`'s exactly, whatever the keys.
@Suite struct IdentifierOrderTests {
    static func id(_ key: String, entity: String = "Trip", store: String? = "s") -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: store, entityName: entity, primaryKey: key)
    }

    @Test(arguments: [1, 2, 3, 4])
    func asciiKeysSortAsTheOperatorSortsThem(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        // Keys that share long prefixes (so that 16 bytes do not decide), are prefixes of each other, hold NUL
        // (which pads like the end of a key), and mix lengths around 8 and 16 bytes.
        let alphabet: [Character] = ["a", "b", "A", "0", "9", "-", "\u{0}", "~"]
        var keys: [String] = []
        for _ in 0..<600 {
            let prefix = ["", "order-0000000000", "g", "order-"].randomElement(using: &random)!
            let length = Int.random(in: 0...20, using: &random)
            keys.append(prefix + String((0..<length).map { _ in alphabet.randomElement(using: &random)! }))
        }
        keys += [
            "a", "a\u{0}", "a\u{0}\u{0}", "", "aaaaaaaaaaaaaaaa", "aaaaaaaaaaaaaaaaa", "aaaaaaaaaaaaaaab",
        ]
        let ids = Array(Set(keys)).map { Self.id($0) }
        #expect(IdentifierOrder.prefixKeys(ids, { $0 }) != nil, "the fast path is what is tested")
        let misplaced = zip(IdentifierOrder.sorted(ids, by: { $0 }), ids.sorted()).filter { $0 != $1 }.count
        #expect(misplaced == 0)
    }

    /// The elements are moved into order in the buffer they came in, not copied into a new one: a copy of
    /// thousands of rows retains what each one holds (out of the cache, in a batch delete) and releases it again
    /// when the old buffer goes. The sort kept a second reference to the buffer it was given, so the first
    /// swap copied it.
    @Test func theElementsAreSortedInTheBufferTheyCameIn() {
        var random = SplitMix64(seed: 7)
        let rows = (0..<1_000).map { _ in Self.id(String(UInt64.random(in: 0...UInt64.max, using: &random))) }
            .map { DataStoreSnapshot(persistentIdentifier: $0, values: ["title": .string("t")]) }
        let expected = rows.map(\.persistentIdentifier).sorted()
        let buffer = rows.withUnsafeBufferPointer { $0.baseAddress }
        let sorted = IdentifierOrder.sorted(consume rows, by: \.persistentIdentifier)
        #expect(sorted.map(\.persistentIdentifier) == expected)
        #expect(sorted.withUnsafeBufferPointer { $0.baseAddress } == buffer, "the rows were copied")
    }

    /// The radix sort orders by the first word, then the second, keeping the input order of equal keys, with
    /// bytes that every key shares (skipped passes) anywhere in either word.
    @Test(arguments: [UInt64(0xFF), 0xFF00_0000_0000_0000, 0x00FF_FF00_0000_0000, .max])
    func theRadixSortOrdersByBothWordsStably(spread: UInt64) {
        var random = SplitMix64(seed: spread)
        var keys = (0..<5_000).map { index in
            IdentifierOrder.PrefixKey(
                high: UInt64.random(in: 0...UInt64.max, using: &random) & spread,
                low: UInt64.random(in: 0...3, using: &random) << 40, index: index)
        }
        let expected = keys.sorted { ($0.high, $0.low, $0.index) < ($1.high, $1.low, $1.index) }.map(\.index)
        IdentifierOrder.radixSort(&keys)
        #expect(keys.map(\.index) == expected)
    }

    @Test func uuidKeysSortAsTheOperatorSortsThem() {
        let ids = (0..<2_000).map { _ in Self.id(PersistentIdentifier().primaryKey) }
        let misplaced = zip(IdentifierOrder.sorted(ids, by: { $0 }), ids.sorted()).filter { $0 != $1 }.count
        #expect(misplaced == 0)
    }

    @Test func otherKeysAndMixedIdentifiersSortThroughTheOperator() {
        // Not ASCII: `String` compares canonical equivalents equal, which bytes would not ("é" as one scalar
        // or as "e" and a combining accent).
        let accented = ["caf\u{E9}", "cafe\u{301}x", "cafe", "cafz", "\u{E9}t\u{E9}", "zzz"].map {
            Self.id($0)
        }
        #expect(IdentifierOrder.prefixKeys(accented, { $0 }) == nil)
        #expect(IdentifierOrder.sorted(accented, by: { $0 }) == accented.sorted())
        // Several entities and stores: ordered by store, then entity, then key.
        let mixed = [
            Self.id("b", entity: "Trip"), Self.id("a", entity: "Stay"),
            Self.id("c", entity: "Trip", store: nil),
            Self.id("a", entity: "Trip", store: "r"), Self.id("a", entity: "Trip"),
        ]
        #expect(IdentifierOrder.prefixKeys(mixed, { $0 }) == nil)
        #expect(IdentifierOrder.sorted(mixed, by: { $0 }) == mixed.sorted())
    }
}
