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
/// writes whatever changed. Structs are values: insert the changed value again to update it.
///
/// # Implementation requirements
///
/// - Every stored property that should persist appears once in ``schemaAttributes``, with a name unique
///   in the entity. Names are what the store and history record, so renaming one is a schema change.
/// - ``init()`` creates an instance whose attributes decoding can overwrite.
/// - ``persistentModelID`` starts as `PersistentIdentifier()`; contexts assign the real one.
public protocol PersistentModel {
    /// The entity's name in the schema; defaults to the type's name.
    static var entityName: String { get }
    /// The persisted attributes: names, key paths and options.
    static var schemaAttributes: [ModelAttribute<Self>] { get }
    /// The identifier of this instance; unresolved until a context inserts it.
    var persistentModelID: PersistentIdentifier { get set }
    /// Creates an empty instance for decoding to fill in.
    init()
}

extension PersistentModel {
    /// The type's name, such as `"Trip"`.
    public static var entityName: String { String(describing: Self.self) }

    /// The entity this type declares, for a ``Schema``.
    public static var schemaEntity: Schema.Entity {
        Schema.Entity(
            name: entityName,
            attributes: schemaAttributes.map { Schema.Attribute(name: $0.name, options: $0.options) })
    }

    /// The declared attribute whose key path is `keyPath`, if any.
    public static func schemaAttribute(for keyPath: AnyKeyPath) -> ModelAttribute<Self>? {
        schemaAttributes.first { $0.keyPath == keyPath }
    }

    /// The instance's attribute values by name, as a store persists them.
    public var snapshotValues: [String: SnapshotValue] {
        var values: [String: SnapshotValue] = [:]
        for attribute in Self.schemaAttributes {
            values[attribute.name] = attribute.value(of: self)
        }
        return values
    }

    /// The instance's snapshot: its identifier and attribute values.
    public var snapshot: DataStoreSnapshot {
        DataStoreSnapshot(persistentIdentifier: persistentModelID, values: snapshotValues)
    }

    /// Creates an instance from a snapshot; throws when a value does not fit its attribute's type.
    public init(snapshot: DataStoreSnapshot) throws(DataStoreError) {
        self.init()
        try apply(snapshot.values)
        persistentModelID = snapshot.persistentIdentifier
    }

    /// Overwrites the instance's attributes with snapshot values; absent names read as `null`.
    public mutating func apply(_ values: [String: SnapshotValue]) throws(DataStoreError) {
        for attribute in Self.schemaAttributes {
            try attribute.setValue(values[attribute.name] ?? .null, on: &self)
        }
    }
}

extension PersistentModel where Self: AnyObject, Self: Hashable {
    /// Instances of a class model are equal when they have the same identifier, as in SwiftData.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.persistentModelID == rhs.persistentModelID
    }

    /// Hashes the identifier, agreeing with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(persistentModelID)
    }
}
