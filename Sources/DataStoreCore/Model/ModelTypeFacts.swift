import Synchronization

/// What every fetch asks of a model type, derived once per type from its ``PersistentModel/schemaAttributes``.
///
/// A fetch runs in code generic over the model that the compiler does not specialise across modules, where
/// each pass over `schemaAttributes` instantiates generic metadata and compares key paths one by one: for an
/// indexed lookup that cost more than the lookup. These facts are plain dictionaries and sets, looked up once.
package struct ModelTypeFacts: @unchecked Sendable {
    // `@unchecked`: key paths are immutable; the compiler does not know them to be `Sendable`.

    /// Each declared key path's position in `schemaAttributes` (the first, as `first(where:)` would find).
    let positions: [AnyKeyPath: Int]
    /// The names of the attributes that are not relationships: their snapshot values are what a predicate
    /// compares.
    package let valueAttributeNames: Set<String>
    /// Whether any attribute is a relationship, so that a query needs related rows to evaluate a predicate.
    package let hasRelationships: Bool
    /// The attributes stored opaquely (`.codable`), by key path: predicates and sorts may not read them.
    package let codableAttributes: [AnyKeyPath: String]

    private static let cache = Lock<[ObjectIdentifier: ModelTypeFacts]>([:])

    /// A key path object as used with one model type.
    struct KeyPathUse: Hashable {
        var model: ObjectIdentifier
        var keyPath: ObjectIdentifier
    }

    /// Attribute names by key path object. A predicate's `$0.title` is the same object on every call (the
    /// runtime instantiates a literal key path once), and comparing its identity is much cheaper than hashing
    /// and comparing its components. Each entry holds its key path, so that the object's address cannot be
    /// reused by another key path while the entry exists; bounded, as key paths can be made at run time.
    private static let names = Lock<[KeyPathUse: NameEntry]>([:])
    private static let namesLimit = 4_096

    private struct NameEntry: @unchecked Sendable {
        // `@unchecked`: key paths are immutable.
        let keyPath: AnyKeyPath
        let name: String?
    }

    /// The name of the attribute of `Model` stored at `keyPath`, or `nil` when it is none of its attributes.
    package static func attributeName<Model: PersistentModel>(for keyPath: AnyKeyPath, in _: Model.Type)
        -> String?
    {
        let use = KeyPathUse(model: ObjectIdentifier(Model.self), keyPath: ObjectIdentifier(keyPath))
        if let known = names.withLock({ $0[use] }) { return known.name }
        let name = Model.schemaAttribute(for: keyPath)?.name
        names.withLock { names in
            if names.count < namesLimit { names[use] = NameEntry(keyPath: keyPath, name: name) }
        }
        return name
    }

    /// Whether `Model` has a relationship: ``of(_:)``'s answer without copying the other facts out (asked on
    /// every insert and fetch).
    package static func hasRelationships<Model: PersistentModel>(_: Model.Type) -> Bool {
        if let known = cache.withLock({ $0[ObjectIdentifier(Model.self)]?.hasRelationships }) { return known }
        return of(Model.self).hasRelationships
    }

    /// The facts of `Model`, derived on first use.
    package static func of<Model: PersistentModel>(_: Model.Type) -> ModelTypeFacts {
        let key = ObjectIdentifier(Model.self)
        if let known = cache.withLock({ $0[key] }) { return known }
        var positions: [AnyKeyPath: Int] = [:]
        for (position, attribute) in Model.schemaAttributes.enumerated()
        where positions[attribute.keyPath] == nil {
            positions[attribute.keyPath] = position
        }
        let facts = ModelTypeFacts(
            positions: positions,
            valueAttributeNames: Set(Model.schemaAttributes.filter { $0.relationship == nil }.map(\.name)),
            hasRelationships: Model.schemaAttributes.contains { $0.relationship != nil },
            codableAttributes: Dictionary(
                Model.schemaAttributes.filter { $0.options.contains(.codable) }.map {
                    ($0.keyPath as AnyKeyPath, $0.name)
                },
                uniquingKeysWith: { first, _ in first }))
        cache.withLock { $0[key] = facts }
        return facts
    }
}
