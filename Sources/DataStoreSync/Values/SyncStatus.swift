public import Foundation

/// What a ``SyncEngine`` is doing and has done: the values an app shows ("Syncing…", "Last synced 2 minutes
/// ago", "3 changes waiting"), delivered as a whole by ``SyncEngine/statusUpdates()`` whenever one changes.
public struct SyncStatus: Sendable, Hashable {
    /// Whether the engine is sending the device's transactions to the server.
    public var isPushing = false
    /// Whether the engine is applying the server's transactions to the device.
    public var isPulling = false
    /// The device's transactions not yet on the server, as of the last push or pull (saves made since are
    /// counted by the next one).
    public var pendingTransactionCount = 0
    /// When a sync last completed without an error.
    public var lastSuccessfulSync: Date?
    /// The device token the server has received through, as JSON text; `nil` before the first push.
    public var pushedToken: String?
    /// The server token the device has applied through, as JSON text; `nil` before the first pull.
    public var pulledToken: String?
    /// The error of the last sync, `nil` once a sync succeeds again.
    public var lastError: SyncFailure?
    /// Transactions pushed to the server by this engine since it was created.
    public var pushedTransactionCount = 0
    /// Server transactions that changed something on the device, applied by this engine since it was created.
    public var pulledTransactionCount = 0
    /// Server transactions read by this engine since it was created, including the device's own (which change
    /// nothing when they come back).
    public var readServerTransactionCount = 0
    /// Conflicts the engine decided since it was created.
    public var conflictCount = 0
    /// How many times the engine rebuilt the device from a full copy of the server (an expired pull token) or
    /// uploaded the device whole (an expired push token).
    public var resynchronisationCount = 0

    /// Whether the engine is pushing or pulling.
    public var isSynchronizing: Bool { isPushing || isPulling }

    /// A status before any sync.
    public init() {}
}

/// Why a sync failed, as the status shows it.
public struct SyncFailure: Sendable, Hashable {
    /// The error's description.
    public var message: String
    /// The error's code, when the error is a `DataStoreError`.
    public var code: String?
    /// When it happened.
    public var date: Date

    /// Creates a failure.
    public init(message: String, code: String?, date: Date) {
        self.message = message
        self.code = code
        self.date = date
    }
}
