/// A type whose instances a model context saves to a store: a plain `struct` or `final class`, no macros.
///
/// Declare the entity's attributes as name and key path pairs, with options, plus an empty initialiser
/// that decoding fills in:
///
/// ```swift
/// final class Trip: PersistentModel {
///     static let schemaAttributes: [ModelAttribute<Trip>] = [
///         .attribute("name", \.name, options: [.unique, .preserveValueOnDeletion]),
///         .attribute("destination", \.destination),
///     ]
///     var persistentModelID = PersistentIdentifier()
///     var name = ""
///     var destination = ""
///     init() {}
/// }
/// ```
///
/// Classes behave as in SwiftData: a context tracks the instances it inserted or fetched, and `save()`
/// writes the attributes that changed (declare them `@Attribute` so it looks only at changed models). Structs
/// are values: insert the changed value again to update it; that sends every attribute, since a struct carries
/// no baseline to compare with.
///
/// # Implementation requirements
///
/// - Every stored property that should persist appears once in ``schemaAttributes``, with a name unique
///   in the entity. Names are what the store and history record, so renaming one is a schema change.
/// - ``schemaAttributes`` returns the same list every time (a `static let`, as above): fetches derive what
///   they need from it once per type.
/// - ``init()`` creates an instance whose attributes decoding can overwrite.
/// - ``persistentModelID`` starts as `PersistentIdentifier()`; contexts assign the real one.
/// - Models are `Equatable`, so a predicate can compare a relationship with `nil`
///   (`#Predicate { $0.livingAccommodation == nil }`): a class model is equal by identity (its
///   ``persistentModelID``, as `@Model` classes are) without declaring anything; a struct model compares its
///   values (Swift synthesizes `==`), unless it declares `==` itself.
public protocol PersistentModel: Equatable, OptionalRelationshipContent
where _RelationshipDestination == Self {
    /// The entity's name in the schema; defaults to the type's name.
    static var entityName: String { get }
    /// The persisted attributes: names, key paths and options.
    static var schemaAttributes: [ModelAttribute<Self>] { get }
    /// Sets of attributes that are unique together, the equivalent of SwiftData's
    /// `#Unique<Trip>([\.name, \.startDate, \.endDate])`. Declare it as a computed property (key paths are not
    /// `Sendable`, so a stored `static let` is refused in Swift 6):
    /// `static var uniqueConstraints: [[PartialKeyPath<Trip>]] { [[\.name, \.startDate, \.endDate]] }`.
    /// Every key path must be one of ``schemaAttributes``; an insert whose values of a set are taken updates
    /// the holder (an upsert), on every backend that enforces `.unique`. Empty by default.
    static var uniqueConstraints: [[PartialKeyPath<Self>]] { get }
    /// Attribute lists that stores index, the equivalent of SwiftData's `#Index<Trip>([\.name], [\.startDate,
    /// \.endDate])`, declared like ``uniqueConstraints``. A store that keeps indexes answers an equality on an
    /// index's first attribute from it instead of examining every model. `.unique` attributes are indexed
    /// anyway. Empty by default.
    static var indexes: [[PartialKeyPath<Self>]] { get }
    /// The identifier of this instance; unresolved until a context inserts it.
    var persistentModelID: PersistentIdentifier { get set }
    /// Creates an empty instance for decoding to fill in.
    init()
}

extension PersistentModel {
    /// The type's name, such as `"Trip"`.
    public static var entityName: String { EntityNames.name(of: Self.self) }

    /// No compound uniqueness unless the model declares it.
    public static var uniqueConstraints: [[PartialKeyPath<Self>]] { [] }
    /// No indexes unless the model declares them.
    public static var indexes: [[PartialKeyPath<Self>]] { [] }

    /// The entity this type declares, for a ``Schema``. A compound constraint's key path that is not an
    /// attribute is dropped here; ``checkUniqueConstraints()`` reports it.
    public static var schemaEntity: Schema.Entity {
        // The values of a model made by `init()` are the defaults existing rows get when an attribute is added.
        let blank = Self()
        return Schema.Entity(
            name: entityName,
            attributes: schemaAttributes.map { attribute in
                Schema.Attribute(
                    name: attribute.name, options: attribute.options, valueKind: attribute.valueKind,
                    originalName: attribute.originalName, defaultValue: attribute.value(of: blank))
            },
            compoundUniqueConstraints: uniqueConstraints.map { set in
                set.compactMap { schemaAttribute(for: $0)?.name }
            },
            indexes: indexes.map { set in set.compactMap { schemaAttribute(for: $0)?.name } },
            relationships: schemaRelationships)
    }

    /// Checks that every key path of ``uniqueConstraints`` and ``indexes`` is a declared attribute.
    ///
    /// - Throws: ``DataStoreError/invalidConfiguration(reason:)`` naming the entity and the constraint.
    public static func checkUniqueConstraints() throws(DataStoreError) {
        try checkAttributeLists(uniqueConstraints, kind: "unique constraint")
        try checkAttributeLists(indexes, kind: "index")
    }

    /// Throws for a list that is empty or names a key path that is not an attribute.
    private static func checkAttributeLists(_ lists: [[PartialKeyPath<Self>]], kind: String)
        throws(DataStoreError)
    {
        for (index, set) in lists.enumerated() {
            guard !set.isEmpty else {
                throw .invalidConfiguration(reason: "\(entityName): \(kind) \(index + 1) names no attribute")
            }
            for keyPath in set where schemaAttribute(for: keyPath) == nil {
                throw .invalidConfiguration(
                    reason:
                        "\(entityName): \(kind) \(index + 1) names \(keyPath), which is not one of its "
                        + "schemaAttributes")
            }
        }
    }

    /// The declared attribute whose key path is `keyPath`, if any.
    public static func schemaAttribute(for keyPath: AnyKeyPath) -> ModelAttribute<Self>? {
        ModelTypeFacts.of(Self.self).positions[keyPath].map { schemaAttributes[$0] }
    }

    /// The instance's attribute values by name, as a store persists them.
    public var snapshotValues: [String: SnapshotValue] {
        ModelReaders.of(Self.self).values(of: self)
    }

    /// The instance's snapshot: its identifier and attribute values.
    public var snapshot: DataStoreSnapshot {
        DataStoreSnapshot(persistentIdentifier: persistentModelID, values: snapshotValues)
    }

    /// The snapshots of `models`, each under the identifier at its position in `identifiers`: each one's
    /// ``snapshotValues``, with the type's readers looked up once for all of them.
    package static func snapshots(
        of models: UnsafeBufferPointer<Self>, identifiedBy identifiers: [PersistentIdentifier]
    )
        -> [DataStoreSnapshot]
    {
        precondition(models.count == identifiers.count, "one identifier per model")
        let readers = ModelReaders.of(Self.self)
        var snapshots: [DataStoreSnapshot] = []
        snapshots.reserveCapacity(models.count)
        for index in models.indices {
            snapshots.append(
                DataStoreSnapshot(
                    persistentIdentifier: identifiers[index], values: readers.values(of: models[index])))
        }
        return snapshots
    }

    /// Creates an instance from a snapshot; throws when a value does not fit its attribute's type.
    ///
    /// Relationships of a model made this way read as empty: fetch models through a `ModelContext` to
    /// follow them.
    public init(snapshot: DataStoreSnapshot) throws(DataStoreError) {
        try self.init(snapshot: snapshot, resolver: nil)
    }

    /// Creates an instance whose relationships `resolver` loads on first read.
    package init(snapshot: DataStoreSnapshot, resolver: (any RelatedModelResolving)?) throws(DataStoreError) {
        // The identifier `init()` gives the model is replaced below (a fetch of many models sets the flag once).
        let writers = ModelWriters.of(Self.self)
        guard !PersistentIdentifier.isReplacedRightAway else {
            self = try writers.make(snapshot, resolver: resolver)
            return
        }
        let made = PersistentIdentifier.$isReplacedRightAway.withValue(true) {
            Result { () throws(DataStoreError) in try writers.make(snapshot, resolver: resolver) }
        }
        self = try made.get()
    }

    /// What makes models of this type from snapshots, as ``init(snapshot:resolver:)`` does, with the type's
    /// writers looked up once: a fetch makes one per row. Call it while `PersistentIdentifier.isReplacedRightAway`
    /// is set (the identifier each `init()` draws is replaced at once).
    package static func snapshotMaker() -> (DataStoreSnapshot, (any RelatedModelResolving)?)
        throws(DataStoreError) -> Self
    {
        let writers = ModelWriters.of(Self.self)
        return { snapshot, resolver throws(DataStoreError) in try writers.make(snapshot, resolver: resolver) }
    }

    /// Overwrites the instance's attributes with snapshot values; absent names read as `null`.
    /// Relationships set this way read as empty until a context refreshes the model.
    public mutating func apply(_ values: [String: SnapshotValue]) throws(DataStoreError) {
        try apply(values, resolver: nil)
    }

    /// Overwrites the attributes; relationships become faults that `resolver` loads on first read.
    package mutating func apply(_ values: [String: SnapshotValue], resolver: (any RelatedModelResolving)?)
        throws(DataStoreError)
    {
        for attribute in Self.schemaAttributes {
            try attribute.setValue(values[attribute.name] ?? .null, on: &self, resolver: resolver)
        }
    }
}

extension PersistentModel where Self: AnyObject {
    /// Instances of a class model are equal when they have the same identifier, as in SwiftData.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.persistentModelID == rhs.persistentModelID
    }
}

extension PersistentModel where Self: AnyObject, Self: Hashable {

    /// Hashes the identifier, agreeing with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(persistentModelID)
    }
}
