/// The snapshots a fetch found, in the order the descriptor asked for.
public struct DataStoreFetchResult: Sendable {
    /// The matching snapshots after sort, offset and limit.
    public var snapshots: [DataStoreSnapshot]

    /// Creates a result.
    public init(snapshots: [DataStoreSnapshot]) {
        self.snapshots = snapshots
    }
}
