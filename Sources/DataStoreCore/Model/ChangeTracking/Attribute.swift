/// Marks a class model's persisted property as one that reports its changes, the counterpart of SwiftData's
/// `@Attribute`:
///
/// ```swift
/// final class Trip: PersistentModel {
///     static let schemaAttributes: [ModelAttribute<Trip>] = [
///         .attribute("name", \.name, options: .unique),
///         .attribute("destination", \.destination),
///     ]
///     var persistentModelID = PersistentIdentifier()
///     @Attribute var name = ""
///     @Attribute var destination = ""
///     init() {}
/// }
/// ```
///
/// The options stay in ``PersistentModel/schemaAttributes``; the wrapper only tells the context that tracks
/// the model that the property changed. When every attribute of a model type is an `@Attribute` or a
/// `@Relationship`, `save()` and `hasChanges` look at the models that changed and never at the others, so
/// their cost does not grow with the number of models a context has fetched. A model type with plain stored
/// properties works too: the context then compares each of its tracked models with its saved values.
@propertyWrapper
public struct Attribute<Value> {
    @usableFromInline var value: Value

    /// An attribute holding `wrappedValue`. (Inlinable: a fetch stores a new model's values by setting whole
    /// wrappers, without going through the property's setter; the model is not tracked yet.)
    @inlinable
    public init(wrappedValue: Value) {
        value = wrappedValue
    }

    /// Attributes that report changes are properties of class models only; the enclosing instance is what
    /// they report.
    @available(*, unavailable, message: "@Attribute is for properties of class models")
    public var wrappedValue: Value {
        get { fatalError("@Attribute is for properties of class models") }
        set { fatalError("@Attribute is for properties of class models") }
    }

    /// Reads and writes the attribute of `owner`; a write is noted in the change log of the context that
    /// tracks `owner`.
    public static subscript<Owner: PersistentModel & AnyObject>(
        _enclosingInstance owner: Owner, wrapped _: ReferenceWritableKeyPath<Owner, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Owner, Self>
    ) -> Value {
        get {
            ChangeReportingDiscovery.noteReport(storage: storageKeyPath)
            // At the storage's address (see `StorageOffsets`): an access through the key path costs about a
            // thousand instructions, more than the rest of a read or write.
            if let storage = StorageOffsets.storage(storageKeyPath, in: owner) {
                return storage.pointee.value
            }
            return owner[keyPath: storageKeyPath].value
        }
        set {
            if let storage = StorageOffsets.storage(storageKeyPath, in: owner) {
                storage.pointee.value = newValue
            } else {
                owner[keyPath: storageKeyPath].value = newValue
            }
            ModelChangeTracking.noteChange(of: owner)
        }
    }
}
