/// The writer of an attribute that a fetch writes in place (see ``FreshWriter/inPlace(offset:write:)``).
struct InPlaceWriter {
    let offset: Int
    let write: (UnsafeMutableRawPointer, consuming SnapshotValue) -> Bool

    /// Writes each of `values` whose attribute has a writer into the instance at `instance`, and returns
    /// `unset` (a bit per attribute position) without the positions it wrote.
    /// `writers` has one for every position; those not in `written` (a bit per position) are placeholders.
    static func write(
        _ values: [String: SnapshotValue], into instance: UnsafeMutableRawPointer, writers: [InPlaceWriter],
        written: UInt64, positions: AttributePositions, unset: UInt64
    ) -> UInt64 {
        var unset = unset
        // Each writer called where it lies, found by a bit rather than as an optional: taking one out of an
        // array of optionals copied it (its closure's context retained, and released after the call), twice an
        // atomic operation for every value of every row.
        writers.withUnsafeBufferPointer { writers in
            for (name, value) in values {
                guard let position = positions[name], written & (1 << position) != 0 else { continue }
                // The iteration's copy moves into the model (a value of the wrong kind is read again by the
                // caller's slow path, which throws the typed error).
                guard writers[position].write(instance + writers[position].offset, consume value) else {
                    continue
                }
                unset &= ~(1 << position)
            }
        }
        return unset
    }

    /// A writer for a position that has none: it writes nothing (the loop above never calls it).
    static var none: InPlaceWriter { InPlaceWriter(offset: 0, write: { _, _ in false }) }
}
