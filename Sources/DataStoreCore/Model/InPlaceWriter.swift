/// The writer of an attribute that a fetch writes in place (see ``FreshWriter/inPlace(offset:write:)``).
struct InPlaceWriter {
    let offset: Int
    let write: (UnsafeMutableRawPointer, consuming SnapshotValue) -> Bool

    /// Writes each of `values` whose attribute has a writer into the instance at `instance`, and returns
    /// `unset` (a bit per attribute position) without the positions it wrote.
    static func write(
        _ values: [String: SnapshotValue], into instance: UnsafeMutableRawPointer, writers: [InPlaceWriter?],
        positions: AttributePositions, unset: UInt64
    ) -> UInt64 {
        var unset = unset
        for (name, value) in values {
            guard let position = positions[name], let writer = writers[position] else { continue }
            // The iteration's copy moves into the model (a value of the wrong kind is read again by the
            // caller's slow path, which throws the typed error).
            guard writer.write(instance + writer.offset, consume value) else { continue }
            unset &= ~(1 << position)
        }
        return unset
    }
}
