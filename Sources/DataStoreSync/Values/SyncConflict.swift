public import DataStoreCore

/// One attribute of one model that a device and the server both changed since the device last synced it:
/// what a ``SyncEngine``'s conflict resolver decides.
///
/// The engine finds conflicts when it pushes an update: the server's current value is neither the value the
/// device's change started from (``base``) nor the device's new value (``local``). It can only know ``base``
/// for attributes marked `.preservePreviousValue`: for other attributes the device's value is written
/// without asking (the default policy, last commit wins by server order).
public struct SyncConflict: Sendable, Hashable {
    /// The model, as the server identifies it.
    public var model: PersistentIdentifier
    /// The attribute's name.
    public var attribute: String
    /// The value the device's change replaced: what both sides last agreed on.
    public var base: SnapshotValue
    /// The device's new value.
    public var local: SnapshotValue
    /// The server's current value, written by another device (or on the server) since.
    public var remote: SnapshotValue

    /// Creates a conflict.
    public init(
        model: PersistentIdentifier, attribute: String, base: SnapshotValue, local: SnapshotValue,
        remote: SnapshotValue
    ) {
        self.model = model
        self.attribute = attribute
        self.base = base
        self.local = local
        self.remote = remote
    }
}

/// Decides a conflict: returns the value the attribute keeps on the server and, after the next pull, on every
/// device. Return `conflict.local` for the default (last commit wins by server order: the push being made is
/// the later commit) or `conflict.remote` to keep what the server holds; any other value (a merge) is written
/// as a change of the device's transaction.
///
/// The engine calls it while it pushes, on the thread that syncs; it must be fast and must not touch the
/// stores.
public typealias SyncConflictResolver = @Sendable (SyncConflict) -> SnapshotValue
