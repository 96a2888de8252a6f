import Synchronization

/// Where the storage of each `@Attribute` and `@Relationship` lies in its class model, by the storage's key
/// path: what reads and writes of the property use instead of the key path.
///
/// The wrappers reach their storage through the key path they are handed, and each access through a key path
/// goes through the runtime: about a thousand instructions to set one `@Attribute` (creating 20,000 users of
/// four attributes spent an eighth of its instructions there), and four such accesses in a relationship read
/// that loads its model. The storage is a stored property at a fixed offset in every instance (see
/// ``StoredPropertyOffset``), measured once per key path and kept here.
///
/// Readers take no lock: the table is a fixed array of slots, each published once (its offset first, then its
/// key, with release ordering) and never changed or removed, so a reader that finds a key finds its offset.
/// Writers insert under a lock. The table keeps the key paths it was asked about alive, so that an identifier in
/// it can never name another key path later (a freed key path's address could be reused). A key path is usually
/// a literal, instantiated once; key paths made at run time stop being added past ``capacity``, and are read
/// through as before.
@usableFromInline
enum StorageOffsets {
    /// How many key paths the table keeps at most: half its slots, so that every probe ends at an empty one.
    static let capacity = 4_096
    private static let slotCount = 2 * capacity

    /// The slots: the key path's identifier (0 when empty) and its offset plus one (0 when it cannot be
    /// trusted).
    private struct Slots: @unchecked Sendable {
        // `@unchecked`: the pointers are allocated once and never freed; every access is atomic.
        let keys: UnsafeMutablePointer<Atomic<UInt>>
        let offsets: UnsafeMutablePointer<Atomic<Int>>

        init(count: Int) {
            keys = .allocate(capacity: count)
            offsets = .allocate(capacity: count)
            for index in 0..<count {
                (keys + index).initialize(to: Atomic(0))
                (offsets + index).initialize(to: Atomic(0))
            }
        }
    }

    /// A key path the table holds, kept alive.
    private struct Kept: @unchecked Sendable {
        // `@unchecked`: a key path is immutable; the table only keeps it alive.
        let keyPath: AnyKeyPath
    }

    private static let slots = Slots(count: slotCount)
    /// The key paths in the table, taken by writers only.
    private static let kept = Lock<[Kept]>([])
    /// How many key paths the table holds, read without the lock to stop measuring when it is full.
    private static let filled = Atomic<Int>(0)
    /// Whether this thread is measuring an offset (see ``offset(of:)``).
    @TaskLocal private static var isMeasuring = false

    /// The byte offset of the storage `keyPath` names in instances of `Owner`, or `nil` when it cannot be
    /// trusted (then the caller goes through the key path).
    @usableFromInline
    static func offset<Owner: PersistentModel & AnyObject, Storage>(
        of keyPath: ReferenceWritableKeyPath<Owner, Storage>
    ) -> Int? {
        let key = UInt(bitPattern: ObjectIdentifier(keyPath))
        if let known = find(key) { return known }
        // A full table measures no more: each access would make two instances.
        // A model whose `init()` reads or sets a wrapped property does so while its instances are made to
        // measure: those accesses go through the key path, instead of measuring again without end.
        guard filled.load(ordering: .relaxed) < capacity, !isMeasuring else { return nil }
        // Measured outside the lock: measuring makes two instances of the model. A wrapper's storage is a
        // stored property; its value may be an enum whose copies need not match it byte for byte.
        let offset = $isMeasuring.withValue(true) { StoredPropertyOffset.of(keyPath, comparingBytes: false) }
        kept.withLock { kept in
            guard kept.count < capacity, find(key) == nil else { return }
            var index = slot(of: key)
            while slots.keys[index].load(ordering: .relaxed) != 0 { index = (index + 1) % slotCount }
            slots.offsets[index].store(offset.map { $0 + 1 } ?? 0, ordering: .relaxed)
            slots.keys[index].store(key, ordering: .releasing)
            kept.append(Kept(keyPath: keyPath))
            filled.store(kept.count, ordering: .relaxed)
        }
        return offset
    }

    /// The storage `keyPath` names in `owner`, at its offset, or `nil` when the offset cannot be trusted (then
    /// the caller goes through the key path).
    @usableFromInline
    static func storage<Owner: PersistentModel & AnyObject, Storage>(
        _ keyPath: ReferenceWritableKeyPath<Owner, Storage>, in owner: Owner
    ) -> UnsafeMutablePointer<Storage>? {
        guard let offset = offset(of: keyPath) else { return nil }
        return (StoredPropertyOffset.address(of: owner) + offset).assumingMemoryBound(to: Storage.self)
    }

    /// The entry for `key`: `nil` when the table has none, `.some(nil)` when its offset cannot be trusted.
    private static func find(_ key: UInt) -> Int?? {
        var index = slot(of: key)
        while true {
            let found = slots.keys[index].load(ordering: .acquiring)
            if found == key {
                let stored = slots.offsets[index].load(ordering: .relaxed)
                return .some(stored == 0 ? nil : stored - 1)
            }
            if found == 0 { return nil }
            index = (index + 1) % slotCount
        }
    }

    /// The first slot to look at for `key`: an object's address, its low bits always zero, mixed.
    private static func slot(of key: UInt) -> Int {
        Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 32) % slotCount
    }
}
