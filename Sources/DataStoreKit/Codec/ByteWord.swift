/// Eight bytes read as one word and tested all at once: how the JSON writer finds the bytes a string must
/// escape, and the PostgreSQL store the quotes and backslashes of an array literal, eight bytes at a time
/// instead of one.
///
/// In a word, `(w - 0x0101…01 · n) & ~w & 0x8080…80` is non-zero exactly when a byte of `w` is below `n` (for
/// `n` up to 128): a byte's subtraction borrows into its top bit only when it is below `n`, and a byte of 128 or
/// more is excluded by `~w`. Equality with a byte value `b` is a zero byte of `w ^ (0x0101…01 · b)`. The tests
/// say whether some byte matches, not which: the caller finds it byte by byte.
@frozen package struct ByteWord {
    @inlinable static var ones: UInt64 { 0x0101_0101_0101_0101 }
    @inlinable static var highs: UInt64 { 0x8080_8080_8080_8080 }

    @usableFromInline let bits: UInt64

    /// The eight bytes at `offset` bytes past `base`, which need not be aligned.
    @inlinable package init(_ base: UnsafeRawPointer, at offset: Int) {
        bits = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }

    /// Whether a byte of the word is below `bound` (at most 128).
    @inlinable package func hasByte(below bound: UInt8) -> Bool {
        (bits &- Self.ones &* UInt64(bound)) & ~bits & Self.highs != 0
    }

    /// Whether a byte of the word is `value`.
    @inlinable package func hasByte(equalTo value: UInt8) -> Bool {
        let zeroWhereEqual = bits ^ (Self.ones &* UInt64(value))
        return (zeroWhereEqual &- Self.ones) & ~zeroWhereEqual & Self.highs != 0
    }
}
