public import DataStoreCore
import DataStoreKit
public import Foundation

/// Two-way sync of a device's store with a shared remote store, by history tokens: the engine of the
/// `postgres-sync` example, written against the store protocols only, so any two backends can take part.
///
/// - **Push** sends the local transactions after the last pushed token, one remote save per transaction,
///   authored `device:<name>`. A local transaction authored ``pullAuthor`` came from the remote and is skipped:
///   that is the echo suppression.
/// - **Pull** takes the remote transactions after the last pulled token and, for every model they touched,
///   copies the remote's *current* row into the local store (insert, update or delete), in one local save per
///   remote transaction, authored ``pullAuthor``.
/// - **Conflicts**: the remote's commit order decides. A push merges the transaction's updated attributes into
///   the remote's current row, so updates of different attributes of one model by two devices both survive; a
///   concurrent update of the same attribute ends with the value committed last on the remote (last writer wins
///   by commit order), and every device converges to it on its next pull. A delete wins over a concurrent
///   update: an update of a model the remote no longer holds is dropped, and the next pull removes the copy.
/// - **Expired tokens**: when the remote's history was trimmed past the pulled token, the pull pushes first
///   and then copies every remote model (a full snapshot), deleting local models the remote does not have; the
///   outcome says so. A local history trimmed past the pushed token cannot be pushed transaction by
///   transaction: ``push()`` throws and says a full upload is needed.
/// - **Crash safety**: the tokens are written to the state file (atomically) only after the data they cover is
///   saved, so a crash repeats at most one transaction's copy, which is idempotent, and never skips one.
///
/// Limits: one sync runs at a time per device; a push reads the remote row and writes the merged row, so two
/// devices pushing the same model at the same instant can lose the other's attribute (a store-side merge of
/// named attributes would close that window).
public final class TwoWaySync<Local: DataStore & HistoryProviding, Remote: DataStore & HistoryProviding>
where
    Local.HistoryType.Change: ValueRecordingHistoryChange, Local.HistoryType.Token: StoreHistoryToken,
    Remote.HistoryType.Token: StoreHistoryToken
{
    /// What a pull did.
    public struct PullOutcome: Sendable, Equatable {
        /// The remote transactions copied.
        public var transactions: Int
        /// Whether the pulled token had expired and the device was resynchronised from a full snapshot.
        public var resynchronised: Bool
    }

    /// The author of the local saves a pull makes; push skips their transactions.
    public static var pullAuthor: String { "sync-pull" }

    /// The device's store.
    public let local: Local
    /// The shared store.
    public let remote: Remote
    /// The device's name, in the author of its pushes (`device:<name>`).
    public let device: String
    /// The local transactions this instance pushed, by sequence, and the remote ones it pulled: tests check
    /// that none is handled twice.
    public private(set) var pushedSequences: [Int64] = []
    /// The remote transactions this instance copied into the local store, by sequence.
    public private(set) var pulledSequences: [Int64] = []

    private let modelTypes: [String: any PersistentModel.Type]
    private let stateFile: URL
    private var state: State

    private struct State: Codable {
        var pushed: Local.HistoryType.Token?
        var pulled: Remote.HistoryType.Token?
    }

    /// Creates the sync of `local` with `remote` for the given model types, keeping its tokens in `stateFile`.
    public init(
        local: Local, remote: Remote, device: String, models: [any PersistentModel.Type], stateFile: URL
    ) throws {
        self.local = local
        self.remote = remote
        self.device = device
        self.stateFile = stateFile
        modelTypes = Dictionary(models.map { ($0.entityName, $0) }, uniquingKeysWith: { first, _ in first })
        if let data = try? Data(contentsOf: stateFile) {
            state = try JSONDecoder().decode(State.self, from: data)
        } else {
            state = State()
        }
    }

    /// The author of this device's remote saves.
    public var pushAuthor: String { "device:\(device)" }

    /// Pushes, then pulls.
    @discardableResult
    public func sync() throws -> (pushed: Int, pulled: PullOutcome) {
        let pushed = try push()
        return (pushed, try pull())
    }

    /// Sends the local transactions after the pushed token to the remote; returns how many.
    ///
    /// - Throws: ``DataStoreError/historyTokenExpired`` (with a message) when local history was trimmed past
    ///   the pushed token, and whatever the stores throw; the token then stays at the last pushed transaction.
    @discardableResult
    public func push() throws -> Int {
        var descriptor = HistoryDescriptor<Local.HistoryType>()
        if let token = state.pushed { descriptor.predicate = HistoryPredicates.after(token) }
        let transactions = try local.fetchHistory(descriptor)
        var pushed = 0
        for transaction in transactions {
            if transaction.author != Self.pullAuthor {
                var request = DataStoreSaveChangesRequest(editingState: EditingState(author: pushAuthor))
                for change in transaction.changes {
                    try add(change, to: &request)
                }
                _ = try remote.save(request)
                pushedSequences.append(transaction.token.sequence)
                pushed += 1
            }
            state.pushed = transaction.token
            try saveState()
        }
        return pushed
    }

    /// Copies the remote transactions after the pulled token into the local store.
    @discardableResult
    public func pull() throws -> PullOutcome {
        var descriptor = HistoryDescriptor<Remote.HistoryType>()
        if let token = state.pulled { descriptor.predicate = HistoryPredicates.after(token) }
        let transactions: [Remote.HistoryType]
        do {
            transactions = try remote.fetchHistory(descriptor)
        } catch let error as DataStoreError where error.code == .historyTokenExpired {
            try resynchronise()
            return PullOutcome(transactions: 0, resynchronised: true)
        }
        for transaction in transactions {
            var touched: [PersistentIdentifier] = []
            var seen = Set<PersistentIdentifier>()
            for change in transaction.changes where seen.insert(change.changedPersistentIdentifier).inserted {
                touched.append(change.changedPersistentIdentifier)
            }
            try copyFromRemote(touched)
            pulledSequences.append(transaction.token.sequence)
            state.pulled = transaction.token
            try saveState()
        }
        return PullOutcome(transactions: transactions.count, resynchronised: false)
    }

    // MARK: Push

    /// Adds one local change to the remote request: the remote's current row with the change's values merged
    /// in, or the delete of the remote row.
    private func add(_ change: Local.HistoryType.Change, to request: inout DataStoreSaveChangesRequest) throws
    {
        let id = Self.translate(change.changedPersistentIdentifier, to: remote.identifier)
        guard let type = modelTypes[id.entityName] else { return }
        let existing = try Self.row(type, id, in: remote)
        switch change.kind {
        case .update where existing == nil:
            // Deleted on the remote meanwhile: the delete wins, and the device's next pull removes its copy.
            return
        case .insert, .update:
            var values = existing?.values ?? [:]
            for (name, value) in change.values {
                values[name] = Self.translate(value, to: remote.identifier)
            }
            let snapshot = DataStoreSnapshot(persistentIdentifier: id, values: values)
            if existing == nil {
                request.inserted.append(snapshot)
            } else if existing?.values != values {
                request.updated.append(snapshot)
            }
        case .delete:
            if let existing { request.deleted.append(existing) }
        }
    }

    // MARK: Pull

    /// Makes the local rows of `identifiers` (remote identifiers) equal to the remote's current rows, in one
    /// local save.
    private func copyFromRemote(_ identifiers: [PersistentIdentifier]) throws {
        var request = DataStoreSaveChangesRequest(editingState: EditingState(author: Self.pullAuthor))
        for remoteID in identifiers {
            guard let type = modelTypes[remoteID.entityName] else { continue }
            let id = Self.translate(remoteID, to: local.identifier)
            let current = try Self.row(type, remoteID, in: remote)
            let held = try Self.row(type, id, in: local)
            switch (current, held) {
            case (let current?, nil):
                request.inserted.append(localized(current))
            case (let current?, let held?):
                let copy = localized(current)
                if copy.values != held.values { request.updated.append(copy) }
            case (nil, let held?):
                request.deleted.append(held)
            case (nil, nil):
                continue
            }
        }
        _ = try local.save(request)
    }

    /// The remote's history was trimmed past the pulled token: push what is pending, then copy every remote
    /// model and delete the local ones the remote does not hold, and continue from the remote's newest token.
    private func resynchronise() throws {
        try push()
        // The token first: anything committed after it is pulled again next time, which is harmless.
        let newest = try remote.fetchHistory(
            HistoryDescriptor(
                sortBy: [SortDescriptor(\.transactionIdentifier, order: .reverse)], fetchLimit: 1)
        ).first?.token
        var request = DataStoreSaveChangesRequest(editingState: EditingState(author: Self.pullAuthor))
        for type in modelTypes.values.sorted(by: { $0.entityName < $1.entityName }) {
            let remoteRows = try Self.rows(type, in: remote).map(localized)
            let localRows = try Self.rows(type, in: local)
            let held = Dictionary(uniqueKeysWithValues: localRows.map { ($0.persistentIdentifier, $0) })
            let wanted = Set(remoteRows.map(\.persistentIdentifier))
            for row in remoteRows {
                if let existing = held[row.persistentIdentifier] {
                    if existing.values != row.values { request.updated.append(row) }
                } else {
                    request.inserted.append(row)
                }
            }
            request.deleted += localRows.filter { !wanted.contains($0.persistentIdentifier) }
        }
        _ = try local.save(request)
        state.pulled = newest
        try saveState()
    }

    private func localized(_ row: DataStoreSnapshot) -> DataStoreSnapshot {
        DataStoreSnapshot(
            persistentIdentifier: Self.translate(row.persistentIdentifier, to: local.identifier),
            values: row.values.mapValues { Self.translate($0, to: local.identifier) })
    }

    // MARK: Helpers

    private func saveState() throws {
        try AtomicFileWriter.replace(stateFile.path, with: JSONEncoder().encode(state))
    }

    /// The same model in another store: same entity, same primary key.
    static func translate(_ id: PersistentIdentifier, to store: String) -> PersistentIdentifier {
        PersistentIdentifier(storeIdentifier: store, entityName: id.entityName, primaryKey: id.primaryKey)
    }

    /// References inside values point at the same models in the other store.
    static func translate(_ value: SnapshotValue, to store: String) -> SnapshotValue {
        switch value {
        case .identifier(let id): .identifier(translate(id, to: store))
        case .array(let values): .array(values.map { translate($0, to: store) })
        default: value
        }
    }

    static func row<Model: PersistentModel, Store: DataStore>(
        _: Model.Type, _ id: PersistentIdentifier, in store: Store
    ) throws -> DataStoreSnapshot? {
        try store.fetch(
            DataStoreFetchRequest(
                descriptor: FetchDescriptor<Model>(
                    predicate: #Predicate { $0.persistentModelID == id }, fetchLimit: 1))
        ).snapshots.first
    }

    static func rows<Model: PersistentModel, Store: DataStore>(_: Model.Type, in store: Store) throws
        -> [DataStoreSnapshot]
    {
        try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Model>())).snapshots
    }
}
