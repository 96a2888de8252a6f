/// Makes the loaded relationships of a class model faults again, derived once per model type: what a context
/// going away does to every model it tracked, so that related models that hold each other (a loaded
/// relationship and its loaded inverse) are freed once nobody else holds them.
package final class RelationshipUnloaders<Model: PersistentModel>: @unchecked Sendable {
    // `@unchecked`: immutable after creation; the closures capture key paths and offsets.
    private let unloaders: [(Model, (any RelatedModelResolving)?) -> Void]

    private init() {
        unloaders = Model.schemaAttributes.compactMap { $0.relationship?.unload }
    }

    /// Makes every loaded relationship of `model` a fault over the identifiers it holds, loaded through
    /// `resolver` when read again. The relationship's storage is written, not the property: nothing is noted as
    /// changed.
    package func unload(_ model: Model, resolver: (any RelatedModelResolving)?) {
        for unload in unloaders { unload(model, resolver) }
    }

    /// The table of `Model`, made on first use, or `nil` when the type has no relationships.
    package static func of(_: Model.Type) -> RelationshipUnloaders? {
        guard ModelTypeFacts.hasRelationships(Model.self) else { return nil }
        return ModelTypeTables.table(RelationshipUnloaders.self) { RelationshipUnloaders() }
    }
}
