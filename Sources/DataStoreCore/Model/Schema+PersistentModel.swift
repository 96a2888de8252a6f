extension Schema {
    /// Creates a schema from model types, one entity each, as SwiftData's `Schema([Trip.self, …], version:)`
    /// does; the model types their relationships reach are included too (`Schema([Trip.self])` holds
    /// `LivingAccommodation` and `BucketListItem`).
    public init(_ types: [any PersistentModel.Type], version: Version? = nil) {
        let types = ModelContainer.includingRelatedTypes(types)
        self.init(entities: types.map { $0.schemaEntity }, version: version)
        self.modelTypes = ModelTypeList(types: types)
    }
}
