import DataStoreConformance
import DataStoreCore
import Foundation
import InMemoryStorage

/// One deliberate defect, and the check that must catch it.
enum Sabotage: String, CaseIterable, Sendable {
    case reusedTokens
    case droppedTombstones
    case partialTransactionsVisible
    case expiredTokenIgnored
    case changesReordered
    case extraUpdatedAttribute
    case authorNotRecorded
    case limitOffByOne
    case readsBeforeValidating
    case foreignEpochAccepted
    case upsertInsertsTwice
    case updatesSkipTheBacklog

    var caughtBy: ConformanceCaseName {
        switch self {
        case .reusedTokens: .tokensStrictlyIncrease
        case .droppedTombstones: .tombstoneHoldsOnlyPreservedAttributes
        case .partialTransactionsVisible: .failedSaveLeavesNothingBehind
        case .expiredTokenIgnored: .deletedHistoryExpiresOlderTokens
        case .changesReordered: .changesInRequestOrder
        case .extraUpdatedAttribute: .updatedAttributesExact
        case .authorNotRecorded: .authorRecorded
        case .limitOffByOne: .historyFetchLimitHonoured
        case .readsBeforeValidating: .expiryCheckedBeforeAnyRead
        case .foreignEpochAccepted: .foreignEpochTokenRejected
        case .upsertInsertsTwice: .uniqueInsertUpserts
        case .updatesSkipTheBacklog: .historyUpdatesDeliverCommitsInOrder
        }
    }

    /// What the sabotaged store (and the correct one it is compared with) declares.
    var capabilities: ConformanceCapabilities {
        self == .updatesSkipTheBacklog ? [.historyUpdates] : []
    }
}

typealias ConformanceCaseName = ConformanceCase

struct SabotagedStoreConfiguration: DataStoreConfiguration {
    typealias Store = SabotagedStore
    var name: String
    var schema: Schema?
    var sabotage: Sabotage
}

/// A correct in-memory store with one defect added around it.
final class SabotagedStore: DataStore, HistoryProviding, Sendable {
    typealias Token = InMemoryHistoryToken
    typealias HistoryType = InMemoryHistoryTransaction

    let configuration: SabotagedStoreConfiguration
    let base: InMemoryDataStore
    var sabotage: Sabotage { configuration.sabotage }
    var identifier: String { base.identifier }
    var schema: Schema { base.schema }

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
        self.base = try InMemoryDataStore(
            InMemoryStoreConfiguration(name: configuration.name, schema: schema))
    }

    func fetch<Model: PersistentModel>(_ request: DataStoreFetchRequest<Model>) throws -> DataStoreFetchResult
    {
        try base.fetch(request)
    }

    func save(_ request: DataStoreSaveChangesRequest) throws -> DataStoreSaveChangesResult<
        InMemoryHistoryToken
    > {
        var request = request
        if sabotage == .authorNotRecorded { request.editingState.author = nil }
        do {
            var result = try base.save(request)
            result.token = result.token.map(rewrite)
            return result
        } catch {
            if sabotage == .partialTransactionsVisible, !request.inserted.isEmpty {
                _ = try? base.save(
                    DataStoreSaveChangesRequest(
                        editingState: request.editingState, inserted: request.inserted))
            }
            throw error
        }
    }

    func erase() throws {
        try base.erase()
    }

    func fetchHistory(_ descriptor: HistoryDescriptor<InMemoryHistoryTransaction>) throws
        -> [InMemoryHistoryTransaction]
    {
        var descriptor = descriptor
        switch sabotage {
        case .limitOffByOne:
            descriptor.fetchLimit = descriptor.fetchLimit.map { $0 + 1 }
        case .readsBeforeValidating:
            if let predicate = descriptor.predicate {
                for transaction in try base.fetchHistory(HistoryDescriptor()) {
                    do { _ = try predicate.evaluate(transaction) } catch {
                        throw DataStoreError.predicateEvaluationFailed(store: identifier, reason: "\(error)")
                    }
                }
            }
        default:
            break
        }
        let transactions: [InMemoryHistoryTransaction]
        do {
            transactions = try base.fetchHistory(descriptor)
        } catch DataStoreError.historyTokenExpired where sabotage == .expiredTokenIgnored {
            transactions = try base.fetchHistory(HistoryDescriptor())
        } catch DataStoreError.historyTokenFromAnotherEpoch where sabotage == .foreignEpochAccepted {
            transactions = try base.fetchHistory(HistoryDescriptor())
        }
        return transactions.map(rewrite)
    }

    func deleteHistory(_ descriptor: HistoryDescriptor<InMemoryHistoryTransaction>) throws {
        try base.deleteHistory(descriptor)
    }

    private func rewrite(_ token: InMemoryHistoryToken) -> InMemoryHistoryToken {
        guard sabotage == .reusedTokens else { return token }
        return InMemoryHistoryToken(
            storeIdentifier: token.storeIdentifier, epoch: token.epoch, sequence: (token.sequence + 1) / 2)
    }

    private func rewrite(_ transaction: InMemoryHistoryTransaction) -> InMemoryHistoryTransaction {
        var changes = transaction.changes
        switch sabotage {
        case .droppedTombstones:
            changes = changes.map { change in
                var change = change
                change.tombstone = change.kind == .delete ? [:] : nil
                return change
            }
        case .changesReordered:
            changes.reverse()
        case .extraUpdatedAttribute:
            changes = changes.map { change in
                var change = change
                if change.kind == .update {
                    change.updatedAttributes = (change.updatedAttributes + ["tag"]).sorted()
                }
                return change
            }
        default:
            break
        }
        var copy = InMemoryHistoryTransaction(
            timestamp: transaction.timestamp, changes: changes, token: rewrite(transaction.token),
            author: transaction.author, bundleIdentifier: transaction.bundleIdentifier,
            processIdentifier: transaction.processIdentifier)
        copy.transactionIdentifier = transaction.transactionIdentifier
        return copy
    }
}

extension SabotagedStore: HistoryObserving {
    func historyUpdates(after token: InMemoryHistoryToken?) -> AsyncThrowingStream<
        InMemoryHistoryTransaction, any Error
    > {
        guard sabotage == .updatesSkipTheBacklog else { return base.historyUpdates(after: token) }
        // Only what commits from now on: the transactions already after `token` are lost.
        return base.historyUpdates(after: base.currentToken)
    }
}
