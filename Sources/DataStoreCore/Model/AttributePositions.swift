/// Attribute positions by name, found without hashing where it can be: a name in a snapshot is most often
/// a small string (15 bytes of UTF-8 or fewer), stored inside the `String` value itself, and two small strings
/// are equal exactly when their bytes are. Other names are looked up by hash.
package struct AttributePositions: Sendable {
    private let smallNames: [(UInt64, UInt64)]
    private let byName: [String: Int]

    package init(_ names: [String]) {
        // Where a `String` is not two 64-bit words (32-bit platforms), every lookup hashes.
        smallNames = MemoryLayout<String>.size == 16 ? names.map(Self.bytes) : []
        byName = Dictionary(names.enumerated().map { ($1, $0) }) { first, _ in first }
    }

    /// The position of `name`, or `nil` if it is no attribute.
    package subscript(name: String) -> Int? {
        guard !smallNames.isEmpty else { return byName[name] }
        let bytes = Self.bytes(of: name)
        // Equal bytes mean equal strings (the same small string, or the same storage); unequal bytes prove
        // nothing, so a miss falls back to the hashed lookup.
        for position in smallNames.indices where smallNames[position] == bytes { return position }
        return byName[name]
    }

    /// The two words of a `String` value.
    private static func bytes(of string: String) -> (UInt64, UInt64) {
        withUnsafeBytes(of: string) {
            ($0.load(as: UInt64.self), $0.load(fromByteOffset: 8, as: UInt64.self))
        }
    }
}
