public import DataStoreCore

/// Where a sync stands, kept in the stores it syncs: the bookkeeping model of `DataStoreSync`.
///
/// The engine writes a cursor in the same transaction as the data it covers, so a crash can never separate
/// the two:
/// - on the device, the cursor `pull` holds the server token the device has applied through, written by
///   each pull's local save;
/// - on the server, the cursor `device:<name>` holds the device token the server has received through,
///   written by each push's server save.
///
/// Add `SyncCursor.self` to the schema of both stores (`Schema([Trip.self, SyncCursor.self])`). Its changes
/// appear in history like any model's; the engine never pushes or pulls them.
public struct SyncCursor: PersistentModel {
    /// The attributes: the cursor's token, as the JSON text `HistoryTokenCoding` writes.
    public static let schemaAttributes: [ModelAttribute<SyncCursor>] = [.attribute("token", \.token)]
    /// The identifier; its primary key is the cursor's name.
    public var persistentModelID = PersistentIdentifier()
    /// The token, as JSON text.
    public var token = ""
    /// An empty cursor.
    public init() {}

    /// The identifier of the cursor `name` in `store`.
    static func identifier(_ name: String, in store: String) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: store, entityName: entityName, primaryKey: name)
    }
}
