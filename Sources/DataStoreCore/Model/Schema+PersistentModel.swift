extension Schema {
    /// Creates a schema from model types, one entity each, as SwiftData's `Schema([Trip.self, …], version:)`
    /// does; the model types their relationships reach are included too (`Schema([Trip.self])` holds
    /// `LivingAccommodation` and `BucketListItem`).
    public init(_ types: [any PersistentModel.Type], version: Version? = nil) {
        let types = Self.includingRelatedTypes(types)
        self.init(entities: types.map { $0.schemaEntity }, version: version)
        self.modelTypes = ModelTypeList(types: types)
    }

    /// `types` followed by every model type reachable through their relationships, as SwiftData's
    /// `ModelContainer(for: Trip.self)` includes the models `Trip` relates to.
    package static func includingRelatedTypes(_ types: [any PersistentModel.Type])
        -> [any PersistentModel.Type]
    {
        var result = types
        var seen = Set(types.map { $0.entityName })
        var index = 0
        while index < result.count {
            for related in result[index].relatedModelTypes where seen.insert(related.entityName).inserted {
                result.append(related)
            }
            index += 1
        }
        return result
    }
}
