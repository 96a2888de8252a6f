/// The reader of an attribute stored at a fixed byte offset in its model's storage: a stored property of a
/// class instance (see ``StoredPropertyOffset``) or of a struct value (`MemoryLayout.offset(of:)`).
///
/// A key path read looks up the key path's generic types at run time; a save reads every attribute of every
/// model it sends, so ``ModelReaders`` reads at the offset instead.
@usableFromInline
struct InPlaceReader {
    let offset: Int
    /// Reads the value at the address it is given (the storage's address plus `offset`): it captures nothing,
    /// so that calling it retains nothing.
    let read: (UnsafeRawPointer) -> SnapshotValue

    @usableFromInline
    init(offset: Int, read: @escaping (UnsafeRawPointer) -> SnapshotValue) {
        self.offset = offset
        self.read = read
    }
}
