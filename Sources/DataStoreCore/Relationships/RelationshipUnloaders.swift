/// Makes the loaded relationships of a class model faults again, derived once per model type: what a context
/// going away does to every model it tracked, so that related models that hold each other (a loaded
/// relationship and its loaded inverse) are freed once nobody else holds them.
package final class RelationshipUnloaders<Model: PersistentModel>: @unchecked Sendable {
    // `@unchecked`: immutable after creation; the closures capture key paths and offsets.

    /// The relationships unloaded at their storage's address: kept apart, in a type that is not generic, so
    /// that the loop over them needs no type metadata at run time (a context's deinit runs it for every model).
    private let inPlace: [InPlaceUnloader]
    /// The others, unloaded through their key paths.
    private let byKeyPath: [(Model, (any RelatedModelResolving)?) -> Void]

    private init() {
        var inPlace: [InPlaceUnloader] = []
        var byKeyPath: [(Model, (any RelatedModelResolving)?) -> Void] = []
        for attribute in Model.schemaAttributes {
            guard let relationship = attribute.relationship else { continue }
            if let found = relationship.inPlaceUnloader() {
                inPlace.append(InPlaceUnloader(offset: found.offset, unload: found.unload))
            } else {
                byKeyPath.append(relationship.unload)
            }
        }
        self.inPlace = inPlace
        self.byKeyPath = byKeyPath
    }

    /// Makes every loaded relationship of `model` a fault over the identifiers it holds, loaded through
    /// `resolver` when read again. The relationship's storage is written, not the property: nothing is noted as
    /// changed.
    package func unload(_ model: Model, resolver: (any RelatedModelResolving)?) {
        InPlaceUnloader.unload(at: StoredPropertyOffset.address(of: model), inPlace, resolver: resolver)
        for unload in byKeyPath { unload(model, resolver) }
    }

    /// The table of `Model`, made on first use, or `nil` when the type has no relationships.
    package static func of(_: Model.Type) -> RelationshipUnloaders? {
        guard ModelTypeFacts.hasRelationships(Model.self) else { return nil }
        return TypeTables.table(RelationshipUnloaders.self) { RelationshipUnloaders() }
    }
}

/// A relationship whose storage lies at a known offset in every instance of its model type, with what unloads it
/// there. Not generic, nor nested in a generic type, so that the loop over a model's relationships needs no type
/// metadata at run time.
private struct InPlaceUnloader {
    let offset: Int
    let unload: (UnsafeMutableRawPointer, (any RelatedModelResolving)?) -> Void

    /// Unloads `relationships` of the instance at `instance`.
    static func unload(
        at instance: UnsafeMutableRawPointer, _ relationships: [InPlaceUnloader],
        resolver: (any RelatedModelResolving)?
    ) {
        for relationship in relationships { relationship.unload(instance + relationship.offset, resolver) }
    }
}
