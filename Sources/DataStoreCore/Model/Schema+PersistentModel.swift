extension Schema {
    /// Creates a schema from model types, one entity each, as SwiftData's `Schema([Trip.self, …], version:)`
    /// does.
    public init(_ types: [any PersistentModel.Type], version: Version? = nil) {
        self.init(entities: types.map { $0.schemaEntity }, version: version)
        self.modelTypes = ModelTypeList(types: types)
    }
}
