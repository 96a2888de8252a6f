public import DataStoreCore

/// Playlists in the sync fault test's `playlists` workload: lists whose previous values history keeps.
extension Playlist: FaultListModel {
    /// `SyncSchemas.music`.
    public static var faultSchema: Schema { SyncSchemas.music }
    /// `comment`.
    public static var stampName: String { "comment" }
    /// The comment.
    public var stamp: String {
        get { comment }
        set { comment = newValue }
    }
    /// A rating from `number`.
    public func editDetails(stamp: String, number: Int) { rating = number % 6 }
    /// Rating and comment.
    public var details: String { "\(rating)|\(comment)" }
}
