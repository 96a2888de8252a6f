/// A history change that also records the values it wrote, so the change can be replayed elsewhere (a sync
/// to a server, a replica). The JSON file and time-series stores' changes conform; the in-memory store's do
/// not (read the model's current state instead).
///
/// # Implementation requirements
///
/// - For an insert, ``values`` holds every attribute; for an update, exactly the new values of the
///   attributes listed in `updatedAttributes`; for a delete, it is empty.
public protocol ValueRecordingHistoryChange: HistoryChange {
    /// The values the change wrote.
    var values: [String: SnapshotValue] { get }
}
