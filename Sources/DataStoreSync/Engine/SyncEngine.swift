@_spi(DataStoreInternals) public import DataStoreCore
import Foundation

/// Keeps a device's store in step with a server store, in both directions, by history tokens.
///
/// ```swift
/// let engine = try SyncEngine(local: phone, server: server, device: "phone", models: [Trip.self])
/// try engine.sync()
/// ```
///
/// - **Push** sends each device transaction the server has not received as one server transaction authored
///   ``pushAuthor``, with the updated attributes only (a change set), so attributes other devices changed
///   keep their values. The server records how far it has received in the same transaction (``SyncCursor``).
/// - **Pull** applies the server's transactions after the device's pull token, in server order, as local
///   saves authored ``pullAuthor``; the token is saved in the same local transaction. Transactions by
///   ``pullAuthor`` are never pushed: nothing echoes.
/// - **Conflicts** are per attribute. An attribute both sides changed keeps the value committed last on the
///   server (the push), unless the resolver decides otherwise; see ``SyncConflict``. A delete wins over a
///   concurrent update, in either direction.
/// - **Expired tokens.** A pull token the server no longer honours (history trimmed, server erased) rebuilds
///   the device from a full copy of the server, keeping the device's unpushed changes. A device whose own
///   history was trimmed past what the server received uploads its whole content (its values win).
///
/// Docs/Sync.md describes the model, the conflict table and the failure behaviour. One sync runs at a time per
/// engine; the methods block while another is under way.
public final class SyncEngine<Local: HistoryProvidingStore, Server: HistoryProvidingStore>: Sendable
where
    Local.HistoryType.Change: ValueRecordingHistoryChange,
    Server.HistoryType.Change: ValueRecordingHistoryChange
{
    /// The author of the local saves the engine makes; it never pushes their transactions.
    public static var pullAuthor: String { "sync" }

    /// The device's store.
    public let local: Local
    /// The store every device syncs with.
    public let server: Server
    /// The device's name: unique among the server's devices, and stable across launches.
    public let device: String

    let resolver: SyncConflictResolver
    let localRows: StoreRows<Local>
    let serverRows: StoreRows<Server>
    /// For each synced entity, its sides of many-to-many relationships (a list whose inverse is a list):
    /// what ``Progress/listSides`` keeps.
    let manyToManySides: [String: Set<String>]
    let progress = Lock(Progress())
    /// Held for a whole push or pull, so that one runs at a time (the status lock is never held across I/O).
    let turn = NSLock()

    /// The status and its subscribers.
    struct Progress {
        var status = SyncStatus()
        var subscribers: [UUID: AsyncStream<SyncStatus>.Continuation] = [:]
        /// The device transaction the engine has read through (pushed, or its own pulls skipped), so that a
        /// device that only pulls does not read its pulls again on every push.
        var examinedLocal: Local.Token?
        /// Device models the server merged into another on insert (a unique value taken), by server
        /// identifier: later changes of the device's model go to the server's.
        var remapped: [PersistentIdentifier: PersistentIdentifier] = [:]
        /// The values of their unique constraints that the device's own inserts (not its pulls) gave models of
        /// entities with unique constraints, by device identifier, as its history holds them through
        /// `ownInsertsReadThrough`: where ``mergedHolders(of:)`` finds a device model the device no longer
        /// holds. The history is read once, then only what it gained since.
        var ownInserts: [PersistentIdentifier: DataStoreSnapshot] = [:]
        var ownInsertsReadThrough: Local.Token?
        /// How many device transactions the reads for ``ownInserts`` went through.
        var transactionsReadForOwnInserts = 0
        /// The device's last value of each many-to-many side, for a push to tell a pair the device took off
        /// from one it never saw (``SyncEngine/catchUpListSides(before:previous:)``).
        var listSides = DeviceListSides<Local.Token>()
        /// How many device transactions the reads for ``listSides`` went through.
        var transactionsReadForListSides = 0
        /// The background run, while ``start()`` is in effect.
        var continuous: ContinuousRun?
        /// For tests: runs after a pushed transaction's server save, before the device is corrected; throwing
        /// stands for a crash there.
        var afterPushSaved: (@Sendable () throws -> Void)?
        /// For tests: runs before a pull reads the device's rows, for each page of server history it applies and
        /// each entity of a full copy; throwing stands for a connection lost there.
        var beforePullReadsRows: (@Sendable () throws -> Void)?
        /// For tests: runs right before a pull's save of a page.
        var beforePullSaves: (@Sendable () throws -> Void)?
        /// For tests: runs at the start of each ``SyncEngine/sync()``; throwing stands for a server that cannot
        /// be reached.
        var beforeSync: (@Sendable () throws -> Void)?
        /// For tests: the page size of history reads, in place of ``SyncEngine/historyPageSize``.
        var historyPageSize: Int?
        /// The most transactions one history read of the engine returned.
        var largestHistoryPage = 0
    }

    /// For tests: runs after each pushed transaction's server save, before the device is corrected; an error
    /// it throws ends the push there, as a crash would.
    package var afterPushSaved: (@Sendable () throws -> Void)? {
        get { progress.withLock { $0.afterPushSaved } }
        set { progress.withLock { $0.afterPushSaved = newValue } }
    }

    /// For tests: runs before a pull reads the device's rows, for each page of server history it applies and
    /// each entity of a full copy (an app save made there races with the pull); an error it throws ends the
    /// pull there.
    package var beforePullReadsRows: (@Sendable () throws -> Void)? {
        get { progress.withLock { $0.beforePullReadsRows } }
        set { progress.withLock { $0.beforePullReadsRows = newValue } }
    }

    /// For tests: runs right before a pull saves a page, after it read the device's rows and history for it (an
    /// app save made there races with the pull's save); an error it throws ends the pull there.
    package var beforePullSaves: (@Sendable () throws -> Void)? {
        get { progress.withLock { $0.beforePullSaves } }
        set { progress.withLock { $0.beforePullSaves = newValue } }
    }

    /// For tests: runs at the start of each ``sync()``, before anything is read; an error it throws fails the
    /// sync there, as a server that cannot be reached would.
    package var beforeSync: (@Sendable () throws -> Void)? {
        get { progress.withLock { $0.beforeSync } }
        set { progress.withLock { $0.beforeSync = newValue } }
    }

    /// For tests: how many transactions one read of a store's history returns at most (``historyPageSize``
    /// when `nil`), so that a few transactions span several pages.
    package var testHistoryPageSize: Int? {
        get { progress.withLock { $0.historyPageSize } }
        set { progress.withLock { $0.historyPageSize = newValue.map { max(1, $0) } } }
    }

    /// For tests: the most transactions one read of a store's history by this engine returned so far, what it
    /// held of a history at once.
    package var largestHistoryPage: Int { progress.withLock { $0.largestHistoryPage } }

    /// For tests: how many device transactions the engine read to find the values its own inserts gave models
    /// it no longer holds (``mergedHolders(of:)``).
    package var transactionsReadForOwnInserts: Int { progress.withLock { $0.transactionsReadForOwnInserts } }

    /// For tests: how many device transactions the engine read to learn its many-to-many sides
    /// (``catchUpListSides(before:previous:)``).
    package var transactionsReadForListSides: Int { progress.withLock { $0.transactionsReadForListSides } }

    /// Creates the sync of `local` with `server` for the given model types.
    ///
    /// - Parameters:
    ///   - local: The device's store. Its schema must hold ``SyncCursor``.
    ///   - server: The shared store. Its schema must hold ``SyncCursor`` and every entity of `models`; it may
    ///     hold more (entities and attributes of newer app versions, which this device keeps as they are).
    ///   - device: The device's name, in the author of its server transactions (`device:<name>`).
    ///   - models: The model types to sync.
    ///   - resolver: Decides attributes both sides changed; the default keeps the later commit by server
    ///     order, which is the device's value being pushed.
    /// - Throws: `DataStoreError.invalidConfiguration` when a schema lacks ``SyncCursor`` or a synced entity,
    ///   or the device name is empty.
    public init(
        local: Local, server: Server, device: String, models: [any PersistentModel.Type],
        resolver: @escaping SyncConflictResolver = { $0.local }
    ) throws {
        guard !device.isEmpty else {
            throw DataStoreError.invalidConfiguration(reason: "a sync needs a device name")
        }
        for (role, schema, store) in [
            ("device", local.schema, local.identifier), ("server", server.schema, server.identifier),
        ] {
            for type in [SyncCursor.self] + models where schema.entity(named: type.entityName) == nil {
                throw DataStoreError.invalidConfiguration(
                    reason:
                        "the \(role) store '\(store)' has no entity '\(type.entityName)'; add \(type.entityName).self "
                        + "to its schema to sync it")
            }
        }
        self.local = local
        self.server = server
        self.device = device
        self.resolver = resolver
        let types = ModelTypes(models)
        localRows = StoreRows(store: local, models: types)
        serverRows = StoreRows(store: server, models: types)
        var sides: [String: Set<String>] = [:]
        for entity in server.schema.entities where types.syncs(entity.name) {
            for relationship in entity.relationships where relationship.isToMany {
                guard
                    Self.inverse(of: relationship, in: entity.name, schema: server.schema)?.isToMany == true
                else { continue }
                sides[entity.name, default: []].insert(relationship.name)
            }
        }
        manyToManySides = sides
    }

    /// The author of this device's server transactions.
    public var pushAuthor: String { "device:\(device)" }

    /// What the engine is doing and has done.
    public var status: SyncStatus { progress.withLock { $0.status } }

    /// The status now, then each time it changes, until the consuming task is cancelled.
    public func statusUpdates() -> AsyncStream<SyncStatus> {
        let (stream, continuation) = AsyncStream<SyncStatus>.makeStream(bufferingPolicy: .unbounded)
        let key = UUID()
        progress.withLock {
            $0.subscribers[key] = continuation
            continuation.yield($0.status)
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.progress.withLock { $0.subscribers.removeValue(forKey: key) }
        }
        return stream
    }

    /// Pushes the device's new transactions, then pulls the server's.
    @discardableResult
    public func sync() throws -> SyncOutcome {
        try exclusively {
            try progress.withLock { $0.beforeSync }?()
            let pushed = try performPush()
            let pulled = try performPull()
            return SyncOutcome(
                pushed: pushed.transactions, pulled: pulled.applied, read: pulled.read,
                conflicts: pushed.conflicts, resynchronised: pushed.uploadedWhole || pulled.resynchronised)
        }
    }

    /// Sends the device's transactions the server has not received; returns how many.
    @discardableResult
    public func push() throws -> Int {
        try exclusively { try performPush().transactions }
    }

    /// Applies the server's transactions after the device's pull token; returns how many changed the device.
    @discardableResult
    public func pull() throws -> Int {
        try exclusively { try performPull().applied }
    }

    /// Runs `body` as the one sync under way, and records its outcome in the status.
    private func exclusively<Result>(_ body: () throws -> Result) throws -> Result {
        turn.lock()
        defer { turn.unlock() }
        do {
            let result = try body()
            updateStatus {
                $0.lastError = nil
                $0.lastSuccessfulSync = Date()
            }
            return result
        } catch {
            updateStatus {
                $0.isPushing = false
                $0.isPulling = false
                $0.lastError = SyncFailure(
                    message: String(describing: error), code: (error as? DataStoreError)?.code.name,
                    date: Date())
            }
            throw error
        }
    }

    /// Changes the status and tells every subscriber.
    func updateStatus(_ change: (inout SyncStatus) -> Void) {
        progress.withLock {
            let before = $0.status
            change(&$0.status)
            guard $0.status != before else { return }
            for subscriber in $0.subscribers.values { subscriber.yield($0.status) }
        }
    }
}

/// What one ``SyncEngine/sync()`` did.
public struct SyncOutcome: Sendable, Hashable {
    /// Device transactions pushed to the server.
    public var pushed: Int
    /// Server transactions that changed the device.
    public var pulled: Int
    /// Server transactions read, including the device's own coming back (which change nothing).
    public var read: Int
    /// Attributes both sides had changed, decided by the resolver.
    public var conflicts: Int
    /// Whether a token had expired and the device was rebuilt from the server or uploaded whole.
    public var resynchronised: Bool
}
