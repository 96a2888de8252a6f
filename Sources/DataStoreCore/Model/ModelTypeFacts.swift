import Synchronization

/// What every fetch asks of a model type, derived once per type from its ``PersistentModel/schemaAttributes``.
///
/// A fetch runs in code generic over the model that the compiler does not specialise across modules, where
/// each pass over `schemaAttributes` instantiates generic metadata and compares key paths one by one: for an
/// indexed lookup that cost more than the lookup. These facts are plain dictionaries and sets, looked up once.
struct ModelTypeFacts: @unchecked Sendable {
    // `@unchecked`: key paths are immutable; the compiler does not know them to be `Sendable`.

    /// Each declared key path's position in `schemaAttributes` (the first, as `first(where:)` would find).
    let positions: [AnyKeyPath: Int]
    /// The names of the attributes that are not relationships: their snapshot values are what a predicate
    /// compares.
    let valueAttributeNames: Set<String>
    /// Whether any attribute is a relationship, so that a query needs related rows to evaluate a predicate.
    let hasRelationships: Bool

    private static let cache = Mutex<[ObjectIdentifier: ModelTypeFacts]>([:])

    /// The facts of `Model`, derived on first use.
    static func of<Model: PersistentModel>(_: Model.Type) -> ModelTypeFacts {
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
            hasRelationships: Model.schemaAttributes.contains { $0.relationship != nil })
        cache.withLock { $0[key] = facts }
        return facts
    }
}
