public import DataStoreCore

/// A list-owning model the sync fault test's list workloads edit (`sync-device … lists|playlists`): besides its
/// list, a free-text attribute each edit writes its stamp into, so that every device transaction can be found
/// on the server, and attributes that keep their previous values, so that edits of one owner on two devices
/// are conflicts the resolver decides.
public protocol FaultListModel: ListOwningModel {
    /// The schema of the workload: the owner, its item and `SyncCursor`.
    static var faultSchema: Schema { get }
    /// The stored name of the free-text attribute that carries the stamp.
    static var stampName: String { get }
    /// The free-text attribute that carries the stamp.
    var stamp: String { get set }
    /// Changes the attributes that keep their previous values, from the edit's stamp and a random number.
    func editDetails(stamp: String, number: Int)
    /// The owner's attributes besides its list, as one comparable line.
    var details: String { get }
}

/// The fault test's list workloads by name.
public enum FaultListWorkload {
    /// The owner the workload `name` edits: `lists` edits trips, `playlists` playlists; `nil` for another name.
    public static func model(_ name: String) -> (any FaultListModel.Type)? {
        ["lists": SyncTrip.self, "playlists": Playlist.self][name]
    }
}
