/// Attribute positions by name, found without hashing the text where it can be: a name in a snapshot is most
/// often a small string (15 bytes of UTF-8 or fewer), stored inside the `String` value itself, and two small
/// strings are equal exactly when their bytes are. A name's two words pick a slot in a small open-addressing
/// table (a multiply and a shift, not a `Hasher`); other names are looked up by hash.
package struct AttributePositions: Sendable {
    /// The names' two words, by position.
    private let smallNames: [(UInt64, UInt64)]
    /// Open addressing over `smallNames`: each slot holds a position plus one, or 0 when it is empty. At least
    /// four slots a name, so a lookup mostly probes one.
    private let slots: [UInt8]
    private let mask: Int
    private let byName: [String: Int]

    package init(_ names: [String]) {
        byName = Dictionary(names.enumerated().map { ($1, $0) }) { first, _ in first }
        // Where a `String` is not two 64-bit words (32-bit platforms), every lookup hashes.
        guard MemoryLayout<String>.size == 16 else {
            (smallNames, slots, mask) = ([], [], 0)
            return
        }
        smallNames = names.map(Self.words)
        var size = 16
        while size < names.count * 4 { size *= 2 }
        var slots = [UInt8](repeating: 0, count: size)
        // Positions past 254 are not in the table: a lookup that misses falls back to `byName`, which has all.
        for (position, words) in smallNames.enumerated() where position < Int(UInt8.max) {
            var slot = Self.slot(of: words, mask: size - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = UInt8(position + 1)
        }
        self.slots = slots
        mask = size - 1
    }

    /// The position of `name`, or `nil` if it is no attribute. Inlined: called for every value of every
    /// fetched row, where a call would retain and release the name.
    @inline(__always)
    package subscript(name: String) -> Int? {
        guard !smallNames.isEmpty else { return byName[name] }
        let words = Self.words(of: name)
        var slot = Self.slot(of: words, mask: mask)
        while case let entry = slots[slot], entry != 0 {
            let position = Int(entry) - 1
            // Equal words mean equal strings (the same small string, or the same storage); unequal words
            // prove nothing, so a miss falls back to the hashed lookup.
            if smallNames[position] == words { return position }
            slot = (slot + 1) & mask
        }
        return byName[name]
    }

    @inline(__always)
    private static func slot(of words: (UInt64, UInt64), mask: Int) -> Int {
        let mixed = (words.0 &* 0x9E37_79B9_7F4A_7C15 ^ words.1) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> 32) & mask
    }

    /// The two words of a `String` value.
    private static func words(of string: String) -> (UInt64, UInt64) {
        withUnsafeBytes(of: string) {
            ($0.load(as: UInt64.self), $0.load(fromByteOffset: 8, as: UInt64.self))
        }
    }
}
