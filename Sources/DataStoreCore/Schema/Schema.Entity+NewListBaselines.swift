extension Schema.Entity {
    /// Baselines of empty lists for the to-many relationships that `values`, a new model's, holds: each of its
    /// lists started empty. Sent with the model's insert (``DataStoreSaveChangesRequest/baselines``), they make a
    /// store that turns the insert into an update of the holder of its unique value (an upsert) add the lists'
    /// members to the holder's lists instead of replacing them. Empty when the entity has no such list.
    package func newListBaselines(of values: [String: SnapshotValue]) -> [String: SnapshotValue] {
        var baselines: [String: SnapshotValue] = [:]
        for relationship in relationships where relationship.isToMany && values[relationship.name] != nil {
            baselines[relationship.name] = .array([])
        }
        return baselines
    }
}
