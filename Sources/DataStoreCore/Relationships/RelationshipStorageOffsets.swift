/// Where each `@Relationship` storage lies in its class model, by the storage's key path: what a read of the
/// property uses instead of the key path.
///
/// A read of a relationship property reaches its storage through the key path the wrapper is handed. Each key
/// path access goes through the runtime (a few hundred instructions, and four of them in a read that loads
/// the related model, whose write-back cost as much again): a fetch of 10,000 trips that reads each one's
/// stay spent a seventh of its time there. The storage is a stored property at a fixed offset (see
/// ``StoredPropertyOffset``), measured once per key path and kept here, for reads and for the fetches that
/// write fresh faults there (`RelationshipAccess`).
///
/// The table holds the key paths it was asked about, so that an identifier in it can never name another key
/// path later (a freed key path's address could be reused). A key path is usually a literal, instantiated
/// once; key paths made at run time stop being added past a bound, and are read through as before.
@usableFromInline
enum RelationshipStorageOffsets {
    /// A key path and its storage's offset.
    private struct Entry: @unchecked Sendable {
        // `@unchecked`: a key path is immutable; the entry only keeps it alive.
        let keyPath: AnyKeyPath
        let offset: Int?
    }

    private static let table = Lock<[ObjectIdentifier: Entry]>([:])
    /// Whether this thread is measuring an offset (see ``offset(of:)``).
    @TaskLocal private static var isMeasuring = false
    /// How many key paths the table keeps at most.
    private static let capacity = 4_096

    /// The byte offset of the storage `keyPath` names in instances of `Owner`, or `nil` when it cannot be
    /// trusted (then the caller goes through the key path).
    @usableFromInline
    static func offset<Owner: PersistentModel & AnyObject, Storage>(
        of keyPath: ReferenceWritableKeyPath<Owner, Storage>
    ) -> Int? {
        let key = ObjectIdentifier(keyPath)
        let (known, isFull) = table.withLock { ($0[key], $0.count >= capacity) }
        if let known { return known.offset }
        // A full table measures no more: each read would make two instances.
        // A model whose `init()` reads or sets a relationship reads it while its instances are made to measure:
        // those reads go through the key path, instead of measuring again without end.
        guard !isFull, !isMeasuring else { return nil }
        // Measured outside the lock: measuring makes two instances of the model. The wrapper's storage is a
        // stored property; its state is an enum whose copies need not match it byte for byte.
        let offset = $isMeasuring.withValue(true) { StoredPropertyOffset.of(keyPath, comparingBytes: false) }
        let entry = Entry(keyPath: keyPath, offset: offset)
        table.withLock { table in
            if table.count < capacity { table[key] = entry }
        }
        return offset
    }
}
