@_spi(DataStoreInternals) public import DataStoreCore
import DataStoreKit
import Foundation
import Synchronization

/// A store that keeps models and history in memory: fast, shared by every context of a process, and gone
/// when the process ends.
///
/// Boundaries: one `save` is one transaction; one model instance is one change. History seeks by binary
/// search on the token's sequence and on timestamps, so "after my token" costs O(log n) plus the results.
/// It is safe to use from many tasks at once: a mutex guards the state, and queries evaluate predicates
/// outside it on a copy-on-write snapshot.
public final class InMemoryDataStore: DataStore, Sendable {
    /// The store's configuration type.
    public typealias Configuration = InMemoryStoreConfiguration
    /// The store's token type.
    public typealias Token = InMemoryHistoryToken

    struct State: Sendable {
        var table: SnapshotTable
        var epoch = UUID()
        var history: [InMemoryHistoryTransaction] = []
        var latestSequence: Int64 = 0
        var oldestValidSequence: Int64 = 0
        var nextChangeIdentifier: Int64 = 1
        var lastTimestamp = Date.distantPast
        var statistics = HistoryQueryStatistics()
        /// Models fetches examined (handed to predicate evaluation).
        var modelsExamined = 0
        var fetchRequests = 0
        /// The attribute name lists the retained changes share (see `NameListInterner`).
        var nameLists = NameListInterner()
        /// The continuations of `historyUpdates` sequences, fed under the lock so none misses a commit.
        var observers: [UUID: AsyncThrowingStream<InMemoryHistoryTransaction, any Error>.Continuation] = [:]
    }

    /// The configuration the store was opened with.
    public let configuration: InMemoryStoreConfiguration
    /// The store's identifier: the configuration's name.
    public let identifier: String
    /// The schema the store enforces (empty when opened without one); ``migrate(to:applying:)`` changes it.
    public var schema: Schema { state.withLock { $0.table.schema ?? Schema(entities: []) } }
    let state: Lock<State>
    /// Wakes `commitSignals()` subscribers after each commit and erase.
    let commits = SignalBroadcaster()

    /// Opens an empty store with a fresh epoch.
    ///
    /// - Throws: ``DataStoreError/invalidConfiguration(reason:)`` for an empty name or a negative history
    ///   limit; ``DataStoreError/invalidRelationship(entity:relationship:identifier:reason:)`` for a schema whose
    ///   relationships do not fit together (`Schema.validateRelationships()`).
    public init(_ configuration: InMemoryStoreConfiguration) throws {
        guard !configuration.name.isEmpty else {
            throw DataStoreError.invalidConfiguration(reason: "a store needs a non-empty name")
        }
        if let limit = configuration.maximumHistoryCount, limit < 0 {
            throw DataStoreError.invalidConfiguration(reason: "maximumHistoryCount must not be negative")
        }
        try configuration.schema?.validateRelationships()
        self.configuration = configuration
        self.identifier = configuration.name
        self.state = Lock(
            State(table: SnapshotTable(storeIdentifier: configuration.name, schema: configuration.schema)))
    }

    /// Fetches snapshots of one entity; a predicate on `persistentModelID ==` looks the row up directly, and an
    /// equality on an indexed attribute examines only the models holding the value.
    public func fetch<Model: PersistentModel>(_ request: DataStoreFetchRequest<Model>) throws
        -> DataStoreFetchResult
    {
        let bounds = ModelPredicateBounds<Model>(request.descriptor.predicate)
        let (candidates, rows) = state.withLock { state in
            let candidates = state.table.selectCandidates(for: request.descriptor, bounds: bounds)
            state.modelsExamined += candidates.rows.count
            state.fetchRequests += 1
            return (candidates, state.table.relatedRows(for: Model.self))
        }
        return DataStoreFetchResult(
            snapshots: try SnapshotQuery.run(
                request.descriptor, candidates: candidates, storeIdentifier: identifier, relatedRows: rows,
                bounds: bounds))
    }

    /// Commits the request as one transaction, or throws and changes nothing.
    public func save(_ request: DataStoreSaveChangesRequest) throws -> DataStoreSaveChangesResult<
        InMemoryHistoryToken
    > {
        try state.withLock { state throws(DataStoreError) in
            let plan = try state.table.plan(request)
            guard !plan.changes.isEmpty else {
                // Nothing to commit, but what the store holds may still differ from what was sent (an edit of a
                // list another saver made already): the context takes it.
                return DataStoreSaveChangesResult(
                    storeIdentifier: identifier, remappedIdentifiers: plan.remappedIdentifiers, token: nil,
                    deleteRuleChanges: plan.deleteRuleChanges)
            }
            let token = commit(plan, editingState: request.editingState, in: &state)
            return DataStoreSaveChangesResult(
                storeIdentifier: identifier, remappedIdentifiers: plan.remappedIdentifiers, token: token,
                deleteRuleChanges: plan.deleteRuleChanges)
        }
    }

    /// Records a validated, non-empty plan as the next transaction and applies it to the rows.
    func commit(_ plan: SavePlan, editingState: EditingState, in state: inout State)
        -> InMemoryHistoryToken
    {
        let sequence = state.latestSequence + 1
        let token = InMemoryHistoryToken(
            storeIdentifier: identifier, epoch: state.epoch, sequence: sequence)
        var changes: [InMemoryHistoryChange] = []
        changes.reserveCapacity(plan.changes.count)
        for planned in plan.changes {
            var change = InMemoryHistoryChange(
                planned, changeIdentifier: state.nextChangeIdentifier, transactionIdentifier: sequence)
            change.shareNameLists(with: &state.nameLists)
            changes.append(change)
            state.nextChangeIdentifier += 1
        }
        // Timestamps never decrease along history, so stores can binary-search them.
        let timestamp = max(Date(), state.lastTimestamp)
        state.table.apply(plan)
        let transaction = InMemoryHistoryTransaction(
            timestamp: timestamp, changes: changes, token: token, author: editingState.author,
            bundleIdentifier: editingState.bundleIdentifier, processIdentifier: editingState.processIdentifier
        )
        state.history.append(transaction)
        for observer in state.observers.values {
            observer.yield(transaction)
        }
        commits.signal()
        state.latestSequence = sequence
        state.lastTimestamp = timestamp
        if let limit = configuration.maximumHistoryCount, state.history.count > limit {
            let dropped = state.history.count - limit
            state.oldestValidSequence = max(
                state.oldestValidSequence, state.history[dropped - 1].token.sequence)
            state.history.removeFirst(dropped)
        }
        return token
    }

    /// Deletes every model and all history, and draws a new epoch so earlier tokens no longer match.
    public func erase() throws {
        let observers = state.withLock { state in
            let observers = state.observers
            state = State(table: SnapshotTable(storeIdentifier: identifier, schema: configuration.schema))
            return observers
        }
        // Observers' tokens belong to the old epoch; end their sequences (outside the lock, because finishing
        // runs their termination handlers, which take it).
        for observer in observers.values {
            observer.finish()
        }
        commits.signal()
    }

    /// The token of the newest transaction, or a token at sequence 0 when there is none.
    public var currentToken: InMemoryHistoryToken {
        state.withLock {
            InMemoryHistoryToken(storeIdentifier: identifier, epoch: $0.epoch, sequence: $0.latestSequence)
        }
    }

    /// The models fetches have examined since the store was opened: every candidate a predicate was evaluated
    /// on. An equality on an indexed attribute examines only the models holding the value.
    public var modelsExamined: Int { state.withLock { $0.modelsExamined } }

    /// The model fetches answered since the store was opened: how many store round trips a context made
    /// (loading a relationship for every fetched model is one).
    package var fetchRequests: Int { state.withLock { $0.fetchRequests } }

    /// The number of models held.
    public var modelCount: Int { state.withLock { $0.table.count } }

    /// The number of history transactions retained.
    public var historyCount: Int { state.withLock { $0.history.count } }

    /// Counters of the work all history queries did so far, to show that they seek.
    public var statistics: HistoryQueryStatistics { state.withLock { $0.statistics } }
}
