import DataStoreConformance
@_spi(DataStoreInternals) import DataStoreCore
import DataStoreKit
import Foundation
import InMemoryStorage
import Synchronization

struct SabotagedStoreConfiguration: DataStoreConfiguration {
    typealias Store = SabotagedStore
    var name: String
    var schema: Schema?
    var sabotage: Sabotage
}

/// An error that is not a `DataStoreError`, for the sabotages that throw the wrong kind.
struct UntypedError: Error {}

/// A correct in-memory store with one defect planted around it.
final class SabotagedStore: HistoryProvidingStore, HistoryReadCounting, Sendable {
    typealias Token = InMemoryHistoryToken
    typealias HistoryType = InMemoryHistoryTransaction

    let configuration: SabotagedStoreConfiguration
    let base: InMemoryDataStore
    /// For `overlappingSavesLost`: whether a save is in progress.
    private let saving = Lock(false)
    /// For `listRepeatsKept`: the lists saved naming a model twice, as sent, which fetches return.
    private let listsAsSent = Lock<[PersistentIdentifier: [String: SnapshotValue]]>([:])
    var sabotage: Sabotage { configuration.sabotage }
    var identifier: String { base.identifier }
    var schema: Schema { base.schema }
    var historyTransactionsExamined: Int { base.historyTransactionsExamined }

    init(_ configuration: SabotagedStoreConfiguration) throws {
        self.configuration = configuration
        // The upsert sabotage drops the unique option, so a duplicate value is inserted a second time.
        var schema = configuration.schema
        if configuration.sabotage == .upsertInsertsTwice, let original = schema {
            schema = Schema(
                entities: original.entities.map { entity in
                    Schema.Entity(
                        name: entity.name,
                        attributes: entity.attributes.map {
                            Schema.Attribute(name: $0.name, options: $0.options.subtracting(.unique))
                        })
                })
        }
        schema = schema.map { Self.relationshipsSabotaged($0, by: configuration.sabotage) }
        self.base = try InMemoryDataStore(
            InMemoryStoreConfiguration(name: configuration.name, schema: schema))
    }

    /// The schema with the relationship sabotages applied: delete rules weakened, inverses or all
    /// relationships forgotten.
    static func relationshipsSabotaged(_ schema: Schema, by sabotage: Sabotage) -> Schema {
        var schema = schema
        for index in schema.entities.indices {
            switch sabotage {
            case .danglingReferenceAccepted:
                schema.entities[index].relationships = []
            case .inversesNotMaintained:
                // A store that knows no inverses keeps neither side in step with the other.
                for relationship in schema.entities[index].relationships.indices {
                    schema.entities[index].relationships[relationship].inverse = nil
                }
            case .cascadeIgnored, .denyIgnored, .nullifyIgnored:
                schema.entities[index].relationships = schema.entities[index].relationships.map {
                    relationship in
                    var relationship = relationship
                    switch (sabotage, relationship.deleteRule) {
                    case (.cascadeIgnored, .cascade), (.denyIgnored, .deny):
                        relationship.deleteRule = .noAction
                    case (.nullifyIgnored, .nullify): relationship.inverse = nil
                    default: break
                    }
                    return relationship
                }
            default:
                break
            }
        }
        return schema
    }

    // MARK: Fetching

    func fetch<Model: PersistentModel>(_ request: DataStoreFetchRequest<Model>) throws -> DataStoreFetchResult
    {
        var request = request
        switch sabotage {
        case .fetchPredicateIgnored: request.descriptor.predicate = nil
        case .fetchSortIgnored: request.descriptor.sortBy = []
        case .fetchOffsetIgnored: request.descriptor.fetchOffset = nil
        case .identifierLookupReturnsEveryModel
        where ModelPredicateBounds(request.descriptor.predicate).identifier != nil:
            request.descriptor.predicate = nil
        default: break
        }
        var result: DataStoreFetchResult
        do {
            result = try base.fetch(request)
        } catch DataStoreError.predicateEvaluationFailed where sabotage == .predicateErrorUntyped {
            throw UntypedError()
        }
        if sabotage == .toManyValuesDropped {
            // A store that cannot persist lists of identifiers and reads them back empty.
            result.snapshots = result.snapshots.map { snapshot in
                var snapshot = snapshot
                for (name, value) in snapshot.values {
                    if case .array(let elements) = value, case .identifier? = elements.first {
                        snapshot.values[name] = .array([])
                    }
                }
                return snapshot
            }
        }
        if sabotage == .listRepeatsKept {
            // A store that writes a list as sent and reads it back so.
            let sent = listsAsSent.withLock { $0 }
            result.snapshots = result.snapshots.map { snapshot in
                var snapshot = snapshot
                snapshot.values.merge(sent[snapshot.persistentIdentifier] ?? [:]) { $1 }
                return snapshot
            }
        }
        if sabotage == .fetchLosesAnAttribute {
            result.snapshots = result.snapshots.map { snapshot in
                var snapshot = snapshot
                snapshot.values["note"] = nil
                return snapshot
            }
        }
        return result
    }

    /// Every fixture item the base store holds.
    func allItems() throws -> [DataStoreSnapshot] {
        try base.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<ConformanceItem>())).snapshots
    }

    // MARK: Saving

    func save(_ request: DataStoreSaveChangesRequest) throws -> DataStoreSaveChangesResult<
        InMemoryHistoryToken
    > {
        var request = request
        switch sabotage {
        case .authorNotRecorded: request.editingState.author = nil
        case .bundleNotRecorded: request.editingState.bundleIdentifier = "unknown"
        case .updatesNotApplied: request.updated = []
        case .updatesReplaceWholeRows:
            // The store before change sets: an update is the whole row, and what it leaves out becomes null.
            request.updated = request.updated.map { snapshot in
                var row = snapshot
                for attribute in schema.entity(named: snapshot.persistentIdentifier.entityName)?.attributes
                    ?? []
                where row.values[attribute.name] == nil {
                    row.values[attribute.name] = .null
                }
                return row
            }
        case .mergePolicyIgnored: request.mergePolicy = .mergeByPropertyObjectTrump
        case .listBaselinesIgnored: request.baselines = [:]
        case .upsertBaselinesIgnored:
            for insert in request.inserted { request.baselines[insert.persistentIdentifier] = nil }
        case .upsertConflictsIgnored where request.mergePolicy == .error:
            // The store before upserts were checked: an insert's baselines never refuse it.
            for insert in request.inserted { request.baselines[insert.persistentIdentifier] = nil }
        case .deletesNotApplied: request.deleted = []
        case .emptySaveReturnsAToken where request.isEmpty:
            return DataStoreSaveChangesResult(storeIdentifier: identifier, token: base.currentToken)
        case .missingModelIgnored:
            let held = Set(try allItems().map(\.persistentIdentifier))
            request.updated.removeAll { !held.contains($0.persistentIdentifier) }
            request.deleted.removeAll { !held.contains($0.persistentIdentifier) }
        case .duplicatesDropped:
            var seen = Set<PersistentIdentifier>()
            request.inserted.removeAll { !seen.insert($0.persistentIdentifier).inserted }
        case .saveSplitIntoTransactions where request.inserted.count > 1:
            var last: DataStoreSaveChangesResult<InMemoryHistoryToken>?
            for snapshot in request.inserted {
                last = try base.save(
                    DataStoreSaveChangesRequest(editingState: request.editingState, inserted: [snapshot]))
            }
            return last!
        case .insertsPlannedBeforeRenames where !request.inserted.isEmpty && !request.updated.isEmpty:
            // The planner before renames freed their values: the inserts meet the values the updates give up.
            let inserted = try base.save(
                DataStoreSaveChangesRequest(editingState: request.editingState, inserted: request.inserted))
            var rest = request
            rest.inserted = []
            rest.updated.removeAll { inserted.remappedIdentifiers.values.contains($0.persistentIdentifier) }
            _ = try base.save(rest)
            return inserted
        case .rejectedUpdateKeepsInserts, .rejectedDeleteKeepsInserts:
            try rejectAsInsertOnly(request)
        case .overlappingSavesLost:
            // A save that arrives while another is running is acknowledged but lost: an unsynchronised store.
            let alone = saving.withLock { busy in
                defer { busy = true }
                return !busy
            }
            guard alone else {
                return DataStoreSaveChangesResult(storeIdentifier: identifier, token: base.currentToken)
            }
            defer { saving.withLock { $0 = false } }
            Thread.sleep(forTimeInterval: 0.002)
        default: break
        }
        do {
            var result = try base.save(request)
            result.token = result.token.map(rewrite)
            if sabotage == .listRepeatsKept { keepRepeats(of: request) }
            if sabotage == .unchangedUpdateReturnsAToken, result.token == nil, !request.isEmpty {
                result.token = base.currentToken
            }
            if sabotage == .saveReturnsThePreviousToken, let token = result.token {
                result.token = InMemoryHistoryToken(
                    storeIdentifier: token.storeIdentifier, epoch: token.epoch, sequence: token.sequence - 1)
            }
            return result
        } catch let error as DataStoreError
            where error.code == .uniqueConstraintViolation && sabotage == .uniqueViolationUntyped
        {
            throw DataStoreError.invalidSave(store: error.store ?? "", reason: "something went wrong")
        } catch {
            if sabotage == .partialTransactionsVisible, !request.inserted.isEmpty {
                _ = try? base.save(
                    DataStoreSaveChangesRequest(
                        editingState: request.editingState, inserted: request.inserted))
            }
            throw error
        }
    }

    /// Remembers the lists `request` sends naming a model twice, for fetches to return as sent.
    private func keepRepeats(of request: DataStoreSaveChangesRequest) {
        for snapshot in request.inserted + request.updated {
            for (name, value) in snapshot.values {
                guard case .array(let members) = value, Set(members).count != members.count else { continue }
                listsAsSent.withLock { $0[snapshot.persistentIdentifier, default: [:]][name] = value }
            }
        }
    }

    /// Insert-only behaviour with the defect: the inserts of a rejected save are kept.
    private func rejectAsInsertOnly(_ request: DataStoreSaveChangesRequest) throws {
        let kind: HistoryChangeKind? =
            !request.updated.isEmpty ? .update : (!request.deleted.isEmpty ? .delete : nil)
        guard let kind else { return }
        if (kind == .update && sabotage == .rejectedUpdateKeepsInserts)
            || (kind == .delete && sabotage == .rejectedDeleteKeepsInserts)
        {
            _ = try base.save(
                DataStoreSaveChangesRequest(editingState: request.editingState, inserted: request.inserted))
        }
        throw DataStoreError.unsupportedChange(
            store: identifier, kind: kind, entity: ConformanceItem.entityName)
    }

    func erase() throws {
        guard sabotage == .eraseKeepsHistory else { return try base.erase() }
        // Deletes every model but keeps history and the epoch.
        let items = try allItems()
        if !items.isEmpty { _ = try base.save(DataStoreSaveChangesRequest(deleted: items)) }
    }

    // MARK: History

    func fetchHistory(_ descriptor: HistoryDescriptor<InMemoryHistoryTransaction>) throws
        -> [InMemoryHistoryTransaction]
    {
        var descriptor = descriptor
        let bounds = HistoryPredicateBounds(descriptor.predicate)
        switch sabotage {
        case .limitOffByOne: descriptor.fetchLimit = descriptor.fetchLimit.map { $0 + 1 }
        case .historySortIgnored: descriptor.sortBy = []
        case .readsBeforeValidating:
            if let predicate = descriptor.predicate {
                for transaction in try base.fetchHistory(HistoryDescriptor()) {
                    do { _ = try predicate.evaluate(transaction) } catch {
                        throw DataStoreError.predicateEvaluationFailed(store: identifier, reason: "\(error)")
                    }
                }
            }
        case .sortsAllHistoryForTheNewest where !descriptor.sortBy.isEmpty:
            // Sorting all of history to return the newest, as a store without a newest-first path does.
            _ = try base.fetchHistory(HistoryDescriptor(predicate: descriptor.predicate))
        case .loadsHistoryBeforeValidating, .scansAllHistory:
            // Every row loaded first, as a careless database store would.
            _ = try base.fetchHistory(HistoryDescriptor())
        case .afterIsInclusive:
            if let lower = bounds.lowerToken, !lower.isInclusive, lower.value.sequence > 0 {
                descriptor.predicate = HistoryPredicates.after(
                    InMemoryHistoryToken(
                        storeIdentifier: lower.value.storeIdentifier, epoch: lower.value.epoch,
                        sequence: lower.value.sequence - 1))
            }
        case .authorPredicateIgnored where bounds.author != nil:
            descriptor.predicate = bounds.lowerToken.map { HistoryPredicates.after($0.value) }
        default: break
        }
        var transactions: [InMemoryHistoryTransaction]
        do {
            transactions = try base.fetchHistory(descriptor)
        } catch let error as DataStoreError
            where error.code == .historyTokenExpired && error.tokenExpiry == .historyDeleted
            && sabotage == .expiredTokenIgnored
        {
            transactions = try base.fetchHistory(HistoryDescriptor())
        } catch let error as DataStoreError
            where error.isFromErasedOrRecreatedStore && sabotage == .foreignEpochAccepted
        {
            transactions = try base.fetchHistory(HistoryDescriptor())
        } catch DataStoreError.historyTokenFromAnotherStore where sabotage == .foreignStoreAccepted {
            transactions = try base.fetchHistory(HistoryDescriptor())
        } catch DataStoreError.historyTokenBeyondHistory where sabotage == .tokenBeyondHistoryAccepted {
            transactions = []
        }
        switch sabotage {
        case .historyNewestFirst where descriptor.sortBy.isEmpty: transactions.reverse()
        case .afterNewestRepeatsTheNewest:
            if transactions.isEmpty, bounds.lowerToken?.value == base.currentToken,
                let newest = try base.fetchHistory(HistoryDescriptor()).last
            {
                transactions = [newest]
            }
        case .timestampBoundExclusive:
            if let lower = bounds.lowerTimestamp { transactions.removeAll { $0.timestamp <= lower.value } }
        default: break
        }
        return try transactions.map(rewrite)
    }

    func deleteHistory(_ descriptor: HistoryDescriptor<InMemoryHistoryTransaction>) throws {
        switch sabotage {
        case .deleteHistoryHonoursFetchLimit:
            let doomed = try base.fetchHistory(descriptor).map(\.transactionIdentifier)
            guard !doomed.isEmpty else { return }
            try base.deleteHistory(HistoryDescriptor(predicate: HistoryPredicates.identifiers(Set(doomed))))
        case .deleteHistoryDeletesOneMore:
            guard let upper = HistoryPredicateBounds(descriptor.predicate).upperToken?.value else {
                return try base.deleteHistory(descriptor)
            }
            try base.deleteHistory(
                HistoryDescriptor(
                    predicate: HistoryPredicates.through(
                        InMemoryHistoryToken(
                            storeIdentifier: upper.storeIdentifier, epoch: upper.epoch,
                            sequence: upper.sequence + 1))))
        default:
            try base.deleteHistory(descriptor)
        }
    }

    private func rewrite(_ token: InMemoryHistoryToken) -> InMemoryHistoryToken {
        guard sabotage == .reusedTokens else { return token }
        return InMemoryHistoryToken(
            storeIdentifier: token.storeIdentifier, epoch: token.epoch, sequence: (token.sequence + 1) / 2)
    }

    private func rewrite(_ transaction: InMemoryHistoryTransaction) throws -> InMemoryHistoryTransaction {
        var copy = transaction
        copy.token = rewrite(transaction.token)
        switch sabotage {
        case .droppedTombstones:
            for index in copy.changes.indices where copy.changes[index].kind == .delete {
                copy.changes[index].tombstone = [:]
            }
        case .changesReordered: copy.changes.reverse()
        case .previousValuesHoldTheNewValues:
            for index in copy.changes.indices where copy.changes[index].kind == .update {
                let change = copy.changes[index]
                copy.changes[index].previousValues = change.previousValues.map { previous in
                    change.values.filter { previous[$0.key] != nil }
                }
            }
        case .previousValuesForEveryAttribute:
            for index in copy.changes.indices where copy.changes[index].kind == .update {
                let change = copy.changes[index]
                copy.changes[index].previousValues = change.values.merging(change.previousValues ?? [:]) {
                    $1
                }
            }
        case .relationshipPreviousValuesDropped:
            for index in copy.changes.indices {
                copy.changes[index].previousValues?.removeValue(forKey: "entries")
                copy.changes[index].previousValues?.removeValue(forKey: "folder")
            }
        case .extraUpdatedAttribute:
            for index in copy.changes.indices where copy.changes[index].kind == .update {
                copy.changes[index].updatedAttributes = (copy.changes[index].updatedAttributes + ["tag"])
                    .sorted()
            }
        case .firstChangeRepeated:
            if let first = copy.changes.first { copy.changes.append(first) }
        case .deletesRecordedAsUpdates:
            for index in copy.changes.indices where copy.changes[index].kind == .delete {
                copy.changes[index].kind = .update
            }
        case .tombstoneHoldsInsertedValues:
            let inserts = try base.fetchHistory(HistoryDescriptor()).flatMap(\.changes).filter {
                $0.kind == .insert
            }
            for index in copy.changes.indices where copy.changes[index].kind == .delete {
                let id = copy.changes[index].changedPersistentIdentifier
                let inserted = inserts.first { $0.changedPersistentIdentifier == id }?.values ?? [:]
                copy.changes[index].tombstone = copy.changes[index].tombstone?.keys.reduce(into: [:]) {
                    $0[$1] = inserted[$1]
                }
            }
        case .insertsListUpdatedAttributes:
            for index in copy.changes.indices where copy.changes[index].kind == .insert {
                copy.changes[index].updatedAttributes = copy.changes[index].values.keys.sorted()
            }
        case .transactionNamesAnotherStore: copy.storeIdentifier = "elsewhere"
        case .timestampsGoBackwards:
            copy.timestamp = transaction.timestamp.addingTimeInterval(
                -Double(transaction.transactionIdentifier) / 100)
        case .updatesRecordUnchangedValues:
            // An update claims every value the model was inserted with, not only the changed ones.
            let inserts = try base.fetchHistory(HistoryDescriptor()).flatMap(\.changes).filter {
                $0.kind == .insert
            }
            for index in copy.changes.indices where copy.changes[index].kind == .update {
                let id = copy.changes[index].changedPersistentIdentifier
                let inserted = inserts.first { $0.changedPersistentIdentifier == id }?.values ?? [:]
                copy.changes[index].values.merge(inserted) { changed, _ in changed }
            }
        case .changeIdentifiersRepeat:
            for index in copy.changes.indices {
                copy.changes[index].changeIdentifier = transaction.transactionIdentifier
            }
        default: break
        }
        return copy
    }
}

extension SabotagedStore: HistoryObserving {
    func historyUpdates(after token: InMemoryHistoryToken?) -> AsyncThrowingStream<
        InMemoryHistoryTransaction, any Error
    > {
        switch sabotage {
        case .updatesSkipTheBacklog:
            // Only what commits from now on: the transactions already after `token` are lost.
            return base.historyUpdates(after: base.currentToken)
        case .updatesIgnoreExpiry:
            // A rejected token is quietly replaced by "from the beginning".
            let valid =
                token.map { token in
                    (try? base.fetchHistory(
                        HistoryDescriptor(predicate: HistoryPredicates.after(token), fetchLimit: 0))) != nil
                } ?? true
            return base.historyUpdates(after: valid ? token : nil)
        default:
            return base.historyUpdates(after: token)
        }
    }

    func commitSignals() -> AsyncStream<Void> {
        guard sabotage == .signalsMissCommits else { return base.commitSignals() }
        // Subscribed, but never woken: an observer waiting on it would sleep through every commit.
        return AsyncStream { _ in }
    }
}
