/// The entity and key of each sample in a save, to refuse a model named twice.
///
/// `Set<PersistentIdentifier>` hashes three strings with SipHash per sample, which on ingest cost more than
/// all of a sample's other checks. This table hashes the key's bytes alone with FNV-1a (seeded per process,
/// so that no fixed set of keys collides everywhere) and tells samples of different entities apart on
/// comparison. Its size is fixed by the number of samples it will hold.
struct SampleKeySet {
    private var slots: [Int32]
    private var entries: [(entity: String, key: String)] = []
    private let mask: Int

    private static let seed = UInt64.random(in: .min ... .max)

    /// A table for up to `capacity` samples.
    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size *= 2 }
        slots = Array(repeating: -1, count: size)
        mask = size - 1
        entries.reserveCapacity(capacity)
    }

    /// Adds a sample; `false` when one with the same entity and key is already in the table.
    mutating func insert(entity: String, key: String) -> Bool {
        precondition(entries.count < slots.count / 2, "SampleKeySet holds more samples than it was made for")
        var hash = Self.seed ^ 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        var slot = Int(truncatingIfNeeded: hash ^ (hash >> 32)) & mask
        while slots[slot] >= 0 {
            let entry = entries[Int(slots[slot])]
            if entry.key == key && entry.entity == entity { return false }
            slot = (slot + 1) & mask
        }
        slots[slot] = Int32(entries.count)
        entries.append((entity, key))
        return true
    }
}
