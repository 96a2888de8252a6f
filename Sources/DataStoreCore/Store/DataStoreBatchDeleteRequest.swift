public import Foundation

/// A request to delete every model of one type that matches a predicate, in one transaction, as in SwiftData.
/// `ModelContext`'s `delete(model:where:includeSubclasses:)` sends one to a store that conforms to
/// ``DataStoreBatching``.
public struct DataStoreBatchDeleteRequest<T: PersistentModel>: Sendable {
    /// Which models to delete: every model of `T` when `nil`.
    public let predicate: Predicate<T>?
    /// Whether models of `T`'s subclasses are deleted too. This package's models have no subclasses (models
    /// are declared with ``PersistentModel``, not by inheritance), so it changes nothing; it is kept so that
    /// SwiftData code ports unchanged.
    public let includeSubclasses: Bool
    /// Who is deleting: recorded as the transaction's author, bundle and process.
    public let editingState: EditingState

    /// Creates a request.
    public init(
        predicate: Predicate<T>? = nil, includeSubclasses: Bool = true,
        editingState: EditingState = EditingState()
    ) {
        self.predicate = predicate
        self.includeSubclasses = includeSubclasses
        self.editingState = editingState
    }

    /// A fetch of the models the request deletes (`includePendingChanges` off: a store holds no pending changes).
    public var fetchDescriptor: FetchDescriptor<T> {
        var descriptor = FetchDescriptor<T>(predicate: predicate)
        descriptor.includePendingChanges = false
        return descriptor
    }
}
