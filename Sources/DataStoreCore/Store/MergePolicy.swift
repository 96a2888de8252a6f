/// What a save does when the store holds a value for an attribute that differs from the value the saver last
/// read: another context or process changed it in between. The names are Core Data's.
///
/// A save only ever sends the attributes the saver changed (its change set), so an attribute it did not
/// change never overwrites what others wrote, whatever the policy. The policy decides the attributes both
/// changed.
public enum MergePolicy: Sendable, Hashable {
    /// The saver's value wins for each attribute it changed; every other attribute keeps what the store holds
    /// (Core Data's `mergeByPropertyObjectTrump`, and SwiftData's behaviour). The default.
    case mergeByPropertyObjectTrump
    /// Optimistic concurrency: when the stored value of any attribute the saver changed differs from the value
    /// the saver last read, the whole save is refused with ``DataStoreError/mergeConflict`` naming the models
    /// and attributes, and nothing is written (Core Data's `error` policy). An insert that the store makes an
    /// update of the holder of its unique value (an upsert) is checked against its baselines as an update is,
    /// when it has baselines: a saver that read no such model says so with baselines of `.null`, and a model
    /// made meanwhile with that unique value refuses the save instead of taking the insert's values.
    case error
}
