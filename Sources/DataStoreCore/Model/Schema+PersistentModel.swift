extension Schema {
    /// Creates a schema from model types, one entity each, as SwiftData's `Schema([Trip.self, …])` does.
    public init(_ types: [any PersistentModel.Type]) {
        self.init(entities: types.map { $0.schemaEntity })
        self.modelTypes = ModelTypeList(types: types)
    }
}
