/// Where a class model keeps a stored property, as a byte offset from the instance's address.
///
/// A fetch fills in every `@Attribute` of every model it creates. Through a key path, each write looks up the
/// key path's generic types in the runtime and checks exclusive access; for a fetch of thousands of models that
/// was most of the time spent making them. A stored property of a class lives at a fixed offset in every
/// instance, so the fetch writes there instead. Swift has no public API for a class property's offset
/// (`MemoryLayout.offset(of:)` answers for structs only), so it is measured: the address a key path access
/// yields, minus the instance's address. It is trusted only if it agrees on two instances and the bytes found
/// there are the property's; otherwise the fetch keeps writing through the key path.
@usableFromInline
enum StoredPropertyOffset {
    /// The offset of the property `keyPath` names in instances of the class model `Model`, or `nil` when it
    /// cannot be trusted (a struct model, or a key path whose access does not reach the instance's storage).
    ///
    /// `comparingBytes: false` skips the check of the bytes, for a value whose copy need not have the same
    /// bytes (an enum with payloads of several sizes copies only its case's): only for a key path known to name
    /// a stored property, such as a property wrapper's storage.
    @usableFromInline
    static func of<Model: PersistentModel, Value>(
        _ keyPath: ReferenceWritableKeyPath<Model, Value>, comparingBytes: Bool = true
    ) -> Int? {
        guard Model.self is AnyObject.Type else { return nil }
        let first = Model()
        let second = Model()
        // Both instances are alive (held by `first` and `second`) while their addresses are compared.
        return withExtendedLifetime((first, second)) {
            guard let offset = measured(keyPath, in: first), offset == measured(keyPath, in: second) else {
                return nil
            }
            guard comparingBytes else { return offset }
            guard holdsValue(keyPath, at: offset, in: first), holdsValue(keyPath, at: offset, in: second)
            else {
                return nil
            }
            return offset
        }
    }

    /// The instance's address: a class model's value is its reference.
    @usableFromInline
    static func address<Model>(of instance: Model) -> UnsafeMutableRawPointer {
        withUnsafeBytes(of: instance) { $0.load(as: UnsafeMutableRawPointer.self) }
    }

    /// The distance from the instance's address to the address a modify access through `keyPath` yields, if it
    /// falls inside a plausible instance (past the two-word object header, within 64 KiB).
    private static func measured<Model, Value>(
        _ keyPath: ReferenceWritableKeyPath<Model, Value>, in instance: Model
    )
        -> Int?
    {
        let base = Int(bitPattern: address(of: instance))
        let field = withUnsafeMutablePointer(to: &instance[keyPath: keyPath]) { Int(bitPattern: $0) }
        let offset = field - base
        let header = 2 * MemoryLayout<Int>.size
        guard offset >= header, offset + MemoryLayout<Value>.size <= 65_536 else { return nil }
        return offset
    }

    /// Whether the bytes at `offset` in `instance` are the bytes of the property's value, read through the key
    /// path.
    private static func holdsValue<Model, Value>(
        _ keyPath: ReferenceWritableKeyPath<Model, Value>, at offset: Int, in instance: Model
    ) -> Bool {
        let value = instance[keyPath: keyPath]
        let stored = UnsafeRawBufferPointer(
            start: address(of: instance) + offset, count: MemoryLayout<Value>.size)
        return withUnsafeBytes(of: value) { $0.elementsEqual(stored) }
    }
}
