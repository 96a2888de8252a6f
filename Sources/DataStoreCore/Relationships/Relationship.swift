/// Marks a class model's property as a relationship, the counterpart of SwiftData's `@Relationship`:
///
/// ```swift
/// final class Trip: PersistentModel {
///     static let schemaAttributes: [ModelAttribute<Trip>] = [
///         .attribute("name", \.name),
///         .relationship("livingAccommodation", \.livingAccommodation, deleteRule: .cascade,
///                       inverse: \LivingAccommodation.trip),
///         .relationship("bucketList", \.bucketList, deleteRule: .cascade, inverse: \BucketListItem.trip),
///     ]
///     var persistentModelID = PersistentIdentifier()
///     var name = ""
///     @Relationship var livingAccommodation: LivingAccommodation?
///     @Relationship var bucketList: [BucketListItem] = []
///     init() {}
/// }
/// ```
///
/// The delete rule and inverse are declared with `.relationship(_:_:deleteRule:inverse:)`
/// in ``PersistentModel/schemaAttributes``; the wrapper is what makes the property load on first read and
/// keep its inverse up to date:
///
/// - A fetched model's relationship holds the related identifiers; the first read loads the models (a
///   context loads every model the same fetch refers to in one store request, and returns the instance it
///   already tracks for an identifier).
/// - Setting either side of a relationship with an inverse updates the other side in memory at once
///   (`trip.bucketList.append(item)` makes `item.trip === trip`); the next save writes both.
@propertyWrapper
public struct Relationship<Value: RelationshipValue> {
    @usableFromInline
    enum State {
        case loaded(Value)
        case fault(RelationshipFault)
    }

    /// Whether ``state`` is `.loaded`, kept beside it: a context going away tells the loaded relationships of
    /// every model it tracked by reading this flag, without copying the related models out (see
    /// `RelationshipAccess.unload`).
    @usableFromInline var isLoaded: Bool
    @usableFromInline var storedState: State
    /// The ``ModelChangeLog/trackingNumber`` of the change log of the context whose resolver loaded the
    /// relationship, `0` when none did: where the setters report the new models they let go of
    /// (``ModelChangeLog/noteDropped(_:)``) when the owner itself is not connected to a log. A fetch does not
    /// connect the models whose attributes do not report their changes (a table entry per fetched model cost
    /// a fetch of models with relationships a sixth of its time); their relationships know the context anyway.
    @usableFromInline var contextLog: Int

    var state: State {
        get { storedState }
        set {
            storedState = newValue
            if case .loaded = newValue { isLoaded = true } else { isLoaded = false }
        }
    }

    /// A relationship holding `wrappedValue`. (Inlinable, as every model's `init()` makes one per relationship
    /// and a fetch makes a model per row: specialised for the model's types, making it looks nothing up.)
    @inlinable
    public init(wrappedValue: Value) {
        isLoaded = true
        storedState = .loaded(wrappedValue)
        contextLog = 0
    }

    /// A relationship holding `value`, which the resolver of the context with change log `contextLog` loaded.
    @inlinable
    init(loaded value: Value, contextLog: Int) {
        isLoaded = true
        storedState = .loaded(value)
        self.contextLog = contextLog
    }

    /// A relationship not read yet.
    @inlinable
    init(fault: RelationshipFault) {
        isLoaded = false
        storedState = .fault(fault)
        contextLog = 0
    }

    /// Relationships are properties of class models only; the enclosing instance is what loads them.
    @available(*, unavailable, message: "@Relationship is for properties of class models")
    public var wrappedValue: Value {
        get { fatalError("@Relationship is for properties of class models") }
        set { fatalError("@Relationship is for properties of class models") }
    }

    /// Reads and writes the relationship of `owner`: loads a fault on first read, and keeps the inverse of
    /// each model added or removed.
    public static subscript<Owner: PersistentModel & AnyObject>(
        _enclosingInstance owner: Owner, wrapped wrappedKeyPath: ReferenceWritableKeyPath<Owner, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Owner, Self>
    ) -> Value {
        // Inlinable, so that a read is specialised for the model's types where it is made: generic, every read
        // of every relationship looked the wrapper's types up in the runtime.
        @inlinable
        get {
            if let discovery = RelationshipStorageDiscovery.current {
                discovery.storageKeyPath = storageKeyPath
            }
            return loadedValue(of: owner, storage: storageKeyPath)
        }
        set {
            let old = loadedValue(of: owner, storage: storageKeyPath)
            guard let change = old.differingParts(to: newValue) else { return }
            owner[keyPath: storageKeyPath].state = .loaded(newValue)
            ModelChangeTracking.noteChange(of: owner)
            if !change.removed.isEmpty {
                ModelChangeTracking.noteDropped(
                    change.removed, by: owner, contextLog: owner[keyPath: storageKeyPath].contextLog)
            }
            // Only what lies between the common start and end can have been lost or gained.
            InverseMaintenance.update(
                owner, relationship: wrappedKeyPath, removed: change.removed, added: change.added)
        }
    }

    /// The value, loading it first if it is a fault.
    @inlinable
    static func loadedValue<Owner: PersistentModel & AnyObject>(
        of owner: Owner, storage: ReferenceWritableKeyPath<Owner, Self>
    ) -> Value {
        if let address = StorageOffsets.storage(storage, in: owner) {
            // At the storage's address: the key path accesses below cost more than the rest of a read.
            return loadedValue(at: address)
        }
        switch owner[keyPath: storage].storedState {
        case .loaded(let value):
            return value
        case .fault(let fault):
            guard let (loaded, value) = load(fault) else { return Value(relatedModels: []) }
            owner[keyPath: storage] = loaded
            return value
        }
    }

    /// The value of the storage at `storage`, loading it first if it is a fault: what
    /// ``loadedValue(of:storage:)`` does through the key path.
    @inlinable
    static func loadedValue(at storage: UnsafeMutablePointer<Self>) -> Value {
        let fault: RelationshipFault
        switch storage.pointee.storedState {
        case .loaded(let value): return value
        case .fault(let found): fault = found
        }
        guard let (loaded, value) = load(fault) else { return Value(relatedModels: []) }
        storage.pointee = loaded
        return value
    }

    /// The loaded relationship `fault` stands for, and its value, the models found through the fault's
    /// resolver; `nil` when it has none or the resolver cannot find them (the property then reads as empty and
    /// stays a fault).
    @inlinable
    static func load(_ fault: RelationshipFault) -> (Self, Value)? {
        guard let resolver = fault.resolver else { return nil }
        let value: Value
        if !Value.isToMany, case .identifier(let id) = fault.value {
            // A to-one relationship: one lookup, no list made on either side.
            guard let model = resolver.resolveOne(id, as: Value.Destination.self) else { return nil }
            value = Value(relatedModel: model)
        } else {
            guard let models = resolver.resolve(fault.identifiers, as: Value.Destination.self) else {
                return nil
            }
            value = Value(relatedModels: models)
        }
        return (Relationship(loaded: value, contextLog: resolver.changeLogNumber), value)
    }

    /// The related identifiers, without loading anything.
    var identifiers: [PersistentIdentifier] {
        switch state {
        case .loaded(let value): value.relatedModels.map(\.persistentModelID)
        case .fault(let fault): fault.identifiers
        }
    }

    /// The persisted value, without loading anything.
    @inlinable
    var snapshotValue: SnapshotValue {
        switch storedState {
        case .fault(let fault):
            return fault.value
        case .loaded(let value):
            let identifiers = value.relatedModels.map { SnapshotValue.identifier($0.persistentModelID) }
            return Value.isToMany ? .array(identifiers) : identifiers.first ?? .null
        }
    }

    /// The related models already in memory; empty for a fault.
    package var loadedModels: [Value.Destination] {
        if case .loaded(let value) = state { return value.relatedModels }
        return []
    }
}
