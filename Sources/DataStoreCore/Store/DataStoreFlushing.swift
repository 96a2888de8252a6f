/// A store that holds accepted work in memory for a while (a time-series store's commit window) and commits it
/// on request. `ModelContainer.flush()` and `close()` call ``flush()`` on every store of the container that
/// conforms, after its autosaving contexts saved.
///
/// # Implementation requirements
///
/// - `flush()` commits everything the store accepted and has not committed yet, as the transactions it would
///   have become, and returns the token of the last (`nil` when there was nothing to commit).
/// - A store that commits every save before `save` returns has nothing to flush and need not conform.
public protocol DataStoreFlushing: DataStore {
    /// Commits what the store holds in memory; returns the token of the last transaction written, if any.
    @discardableResult
    func flush() throws -> Token?
}
