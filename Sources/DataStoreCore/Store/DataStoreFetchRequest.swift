/// A fetch of one model type from a store, described as in SwiftData by a ``FetchDescriptor``.
public struct DataStoreFetchRequest<Model: PersistentModel>: Sendable {
    /// What to fetch: predicate, sort, offset and limit.
    public var descriptor: FetchDescriptor<Model>
    /// Who is fetching.
    public var editingState: EditingState

    /// Creates a request.
    public init(descriptor: FetchDescriptor<Model>, editingState: EditingState = EditingState()) {
        self.descriptor = descriptor
        self.editingState = editingState
    }
}
