import Foundation

/// Refuses fetches whose predicate or sort reads an attribute stored opaquely (`.codable`): no store can
/// compare inside such a value, so a fetch that reads one would answer differently in a database and in Swift.
package enum OpaqueAttributeUse {
    /// Throws when `descriptor` reads a `.codable` attribute of `Model`: `invalidPredicate` for its predicate,
    /// `unsupportedFeature` for its sort. Free for a model without such attributes.
    package static func check<Model: PersistentModel>(_ descriptor: FetchDescriptor<Model>, store: String)
        throws(DataStoreError)
    {
        let codable = ModelTypeFacts.of(Model.self).codableAttributes
        guard !codable.isEmpty else { return }
        if let predicate = descriptor.predicate,
            let name = firstKeyPath(in: predicate.expression, among: codable)
        {
            throw .invalidPredicate(
                store: store, entity: Model.entityName,
                reason: "it reads '\(name)', which is stored opaquely (.codable): compare other attributes")
        }
        for sort in descriptor.sortBy {
            if let name = firstKeyPath(in: sort, among: codable) {
                throw .unsupportedFeature(
                    store: store,
                    reason: "sorting \(Model.entityName) by '\(name)', which is stored opaquely (.codable)")
            }
        }
    }

    /// The name of the first key path among `keyPaths` that `value` holds anywhere inside it (a predicate's
    /// expression tree, a sort descriptor), found by reflection.
    private static func firstKeyPath(in value: Any, among keyPaths: [AnyKeyPath: String], depth: Int = 0)
        -> String?
    {
        if let keyPath = value as? AnyKeyPath {
            if let name = keyPaths[keyPath] { return name }
            // A key path through the value (`\.route.kilometres` in a sort) is one object: its spelling starts
            // with the attribute's.
            let spelled = "\(keyPath)"
            return keyPaths.first { spelled.hasPrefix("\($0.key).") }?.value
        }
        guard depth < 64 else { return nil }
        for child in Mirror(reflecting: value).children {
            if let name = firstKeyPath(in: child.value, among: keyPaths, depth: depth + 1) { return name }
        }
        return nil
    }
}
