/// How a fetch writes one attribute of a model it has just created, which no context tracks yet.
@usableFromInline
enum FreshWriter<Model> {
    /// Into the `@Attribute` storage of a class model, at its byte offset from the instance's address: no key
    /// path, no exclusivity check, no change note (see ``StoredPropertyOffset``). The writer is given the
    /// storage's address, so that it captures nothing and calling it retains nothing. It consumes the value:
    /// the fetch's copy moves into the storage, instead of being copied again there and then released.
    case inPlace(offset: Int, write: (UnsafeMutableRawPointer, consuming SnapshotValue) -> Bool)
    /// Through a key path: the property's, or its `@Attribute` storage's.
    case model((inout Model, SnapshotValue) -> Bool)
}
