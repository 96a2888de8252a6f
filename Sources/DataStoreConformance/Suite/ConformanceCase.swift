/// Every check the suite runs: the one public list backends iterate, so a new check reaches them all.
///
/// ```swift
/// @Test(arguments: ConformanceCase.allCases)
/// func conformance(_ check: ConformanceCase) async throws {
///     try await DataStoreConformance.run(check) { context in
///         try MyStore(MyStoreConfiguration(name: context.storeName, schema: context.schema))
///     }
/// }
/// ```
public enum ConformanceCase: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    // Round trips
    /// Inserted snapshots fetch back with the same values.
    case insertThenFetch
    /// An update's new values fetch back.
    case updateThenFetch
    /// A deleted model no longer fetches.
    case deleteThenFetch
    /// A save with no changes creates no transaction and returns no token.
    case emptySaveRecordsNothing
    /// A save whose updates change no value creates no transaction.
    case unchangedUpdateRecordsNothing

    // Fetching
    /// A fetch predicate returns what a brute-force filter returns.
    case fetchPredicateMatchesOracle
    /// `sortBy` orders as the oracle does.
    case fetchSortMatchesOracle
    /// `fetchOffset` and `fetchLimit` slice as the oracle does.
    case fetchOffsetAndLimitMatchOracle
    /// `persistentModelID == id` fetches exactly that model.
    case fetchByIdentifier
    /// A predicate that throws surfaces as `predicateEvaluationFailed`.
    case fetchPredicateErrorIsTyped

    // History
    /// Each save is exactly one transaction.
    case oneTransactionPerSave
    /// Transactions come back in commit order.
    case historyInCommitOrder
    /// Changes inside a transaction keep the order of the request.
    case changesInRequestOrder
    /// Each model appears at most once in a transaction.
    case oneChangePerModel
    /// Inserts, updates and deletes are recorded with their kinds.
    case changeKindsRecorded
    /// `updatedAttributes` names exactly the attributes whose value changed.
    case updatedAttributesExact
    /// A delete's tombstone holds exactly the preserved attributes.
    case tombstoneHoldsOnlyPreservedAttributes
    /// Tombstone values are the values the model had when deleted.
    case tombstoneValuesAreTheDeletedValues
    /// Inserts and updates carry no tombstone; deletes and inserts list no updated attributes.
    case changeDetailsOnlyWhereTheyBelong
    /// The saving context's author is recorded.
    case authorRecorded
    /// Bundle and process identifiers are recorded.
    case bundleAndProcessRecorded
    /// The store identifier is recorded on transactions and changed identifiers.
    case storeIdentifierRecorded
    /// Timestamps never decrease and are close to the wall clock.
    case timestampsNondecreasing
    /// Stores whose changes record values record exactly what each insert and update wrote.
    case recordedValuesExact
    /// Transaction identifiers are unique; change identifiers grow in commit order.
    case identifiersUniqueAndIncreasing

    // Previous values
    /// An update's and a delete's previous values are exactly the values they replaced.
    case previousValuesAreTheReplacedValues
    /// Previous values appear only for attributes marked `.preservePreviousValue` that the change replaced.
    case previousValuesOnlyWhereAsked
    /// Previous values survive closing and reopening a durable store.
    case previousValuesSurviveReopening
    /// A model changed several ways in one save (by the request and by inverses) records the values it had
    /// before the save, relationships included.
    case previousValuesOfOneSaveAreItsStartingValues

    // Tokens
    /// Tokens grow strictly along history.
    case tokensStrictlyIncrease
    /// Tokens survive a JSON round trip unchanged.
    case tokensRoundTripThroughCodable
    /// The token a save returns is the token of the transaction it created.
    case saveReturnsTheTransactionToken
    /// `token > t` selects exactly the later transactions.
    case tokenAfterSelectsLaterTransactions
    /// After the newest token there is nothing.
    case tokenAfterNewestIsEmpty
    /// `fetchLimit` returns at most that many, the earliest first.
    case historyFetchLimitHonoured
    /// `sortBy` in reverse returns the newest first.
    case historySortByReverse
    /// An author predicate matches a filter of all history.
    case historyAuthorPredicate
    /// A timestamp predicate matches a filter of all history.
    case historyTimestampPredicate
    /// Malformed token JSON throws `malformedHistoryToken`.
    case malformedTokenRejected
    /// A token of another store throws `historyTokenFromAnotherStore`.
    case foreignStoreTokenRejected
    /// A token of another incarnation (an erased or recreated store) throws `historyTokenExpired`, with the
    /// reason `.storeErasedOrRecreated`.
    case foreignEpochTokenRejected
    /// A token ahead of history throws `historyTokenBeyondHistory`.
    case tokenBeyondHistoryRejected

    // Deleting history
    /// After `deleteHistory` up to `t`, an older token throws `historyTokenExpired`.
    case deletedHistoryExpiresOlderTokens
    /// Expiry is checked before any transaction is read.
    case expiryCheckedBeforeAnyRead
    /// A rejected token (expired, another epoch) costs no transaction read, by the store's own count.
    case tokenValidatedBeforeReading
    /// "After a token near the end" reads only the transactions after it, by the store's own count.
    case historySeeksInsteadOfScanning
    /// The latest-token pattern (`sortBy` newest first, `fetchLimit: 1`) reads from the newest end, by the
    /// store's own count.
    case latestTokenReadsFromTheNewestEnd
    /// `deleteHistory` deletes every matching transaction, whatever `fetchLimit` says.
    case deleteHistoryIgnoresFetchLimit
    /// The token at the cut, and newer ones, keep working.
    case tokenAtTheCutStillWorks
    /// `erase` removes everything and starts a new epoch.
    case eraseStartsANewEpoch

    // Saves
    /// A failed save leaves no partial data or history.
    case failedSaveLeavesNothingBehind
    /// An insert with a taken unique value updates the holder.
    case uniqueInsertUpserts
    /// A unique value an update gives up is free for an insert in the same save: a model renamed away from a
    /// value and a new model taking it are two models, not an upsert.
    case uniqueValueGivenUpIsFreeForAnInsert
    /// An update that duplicates a unique value throws and changes nothing.
    case uniqueUpdateViolationRejected
    /// Updating or deleting a model the store lacks throws `modelNotFound`.
    case missingModelRejected
    /// A request naming a model twice is rejected whole.
    case duplicateModelInRequestRejected
    /// Saves from many tasks at once are each recorded exactly once.
    case concurrentSavesRecordedOnce
    /// An update naming some attributes keeps the stored values of the others, and history lists only those
    /// it changed.
    case partialUpdatesMerge
    /// Under `MergePolicy.error`, an update whose baseline differs from the stored value throws
    /// `mergeConflict` and changes nothing; with a current baseline it saves.
    case conflictingUpdateRejectedUnderErrorPolicy
    /// Under `MergePolicy.error`, an insert the store makes an update of the holder of its unique value (an
    /// upsert), with baselines that differ from the holder's stored values, throws `mergeConflict` and changes
    /// nothing; with baselines the holder matches it saves.
    case conflictingUpsertRejectedUnderErrorPolicy

    // Capabilities
    /// Reopening keeps data, history and tokens.
    case reopenKeepsDataHistoryAndTokens
    /// A second instance open on the same store sees the first one's commits, and continues its sequence.
    case secondInstanceSeesCommits
    /// Updates are rejected with `unsupportedChange` and nothing from the save is kept.
    case insertOnlyRejectsUpdatesAtomically
    /// Deletes are rejected with `unsupportedChange` and nothing from the save is kept.
    case insertOnlyRejectsDeletesAtomically
    /// `historyUpdates(after:)` yields the backlog, then new commits, in order, each once.
    case historyUpdatesDeliverCommitsInOrder
    /// `historyUpdates(after:)` with an expired token ends with `historyTokenExpired`.
    case historyUpdatesRejectExpiredTokens
    /// `commitSignals()` yields after every commit made after it was called.
    case commitSignalsFollowEveryCommit

    // Schemas
    /// The store records the schema it was opened with, and a new version of it (across reopening, if durable).
    case schemaIsRecorded
    /// A lightweight migration renames, fills in and drops attribute values of every row, adding no history.
    case lightweightMigrationKeepsRows
    /// A change of value kind, `.unique` over colliding values and removing an entity with rows each throw
    /// `incompatibleSchema` naming the entity and attribute, and change nothing.
    case unsafeSchemaChangeRefused

    // Relationships
    /// Deleting a model deletes the models its `.cascade` relationship holds, in the same transaction, with
    /// tombstones, and reports them in `deleteRuleChanges`.
    case cascadeDeletesRelatedModels
    /// Deleting a model removes it from the inverse relationship of the models it related to (`.nullify`), as an
    /// update in the same transaction naming the relationship.
    case nullifyUpdatesTheInverse
    /// Deleting a model whose `.deny` relationship holds a surviving model throws `deleteDenied` and changes
    /// nothing.
    case denyRefusesTheDelete
    /// A save whose relationship gains an identifier the store does not hold throws `invalidRelationship` and
    /// changes nothing.
    case danglingReferenceRejected
    /// After moves and deletes, every folder lists exactly the entries that name it, and the reverse.
    case inverseSidesStayConsistent
    /// Setting only an entry's to-one side moves it out of its old folder's list and into the new one's, and a
    /// later cascade from the old folder leaves it alone.
    case toOneEditMovesTheInverse
    /// A to-many edit with a baseline merges into the stored list: another saver's additions and removals
    /// since the baseline are kept.
    case listEditsMergeWithTheStoredList
    /// An insert whose unique value a folder holds, with a baseline for its list, merges its entries into the
    /// folder's stored list instead of replacing it (an upsert that keeps another saver's entries).
    case uniqueUpsertMergesAListWithABaseline
    /// A to-many list sent naming a model twice is stored naming it once, where it first stands, and the
    /// model it names twice is linked on the inverse side once.
    case toManyListsNameEachModelOnce

    // Batch deletes
    /// A batch delete removes exactly the models its predicate matches (all of them without one); matching
    /// nothing records nothing.
    case batchDeleteRemovesExactlyTheMatches
    /// A batch delete is one transaction: one delete per match, with tombstones and the request's author.
    case batchDeleteIsOneTransaction
    /// A batch delete applies delete rules: a cascade deletes the related models in the same transaction.
    case batchDeleteAppliesDeleteRules

    /// The case's name.
    public var description: String { rawValue }

    /// Whether the check applies to a store with `capabilities`.
    public func applies(to capabilities: ConformanceCapabilities) -> Bool {
        switch self {
        case .updateThenFetch, .deleteThenFetch, .unchangedUpdateRecordsNothing, .updatedAttributesExact,
            .tombstoneHoldsOnlyPreservedAttributes, .tombstoneValuesAreTheDeletedValues, .uniqueInsertUpserts,
            .uniqueValueGivenUpIsFreeForAnInsert,
            .uniqueUpdateViolationRejected, .missingModelRejected, .cascadeDeletesRelatedModels,
            .nullifyUpdatesTheInverse, .denyRefusesTheDelete, .danglingReferenceRejected,
            .inverseSidesStayConsistent, .partialUpdatesMerge, .conflictingUpdateRejectedUnderErrorPolicy,
            .conflictingUpsertRejectedUnderErrorPolicy,
            .toOneEditMovesTheInverse, .listEditsMergeWithTheStoredList,
            .uniqueUpsertMergesAListWithABaseline, .toManyListsNameEachModelOnce:
            return !capabilities.contains(.insertOnly)
        case .reopenKeepsDataHistoryAndTokens:
            return capabilities.contains(.durable)
        case .previousValuesAreTheReplacedValues, .previousValuesOnlyWhereAsked,
            .previousValuesOfOneSaveAreItsStartingValues:
            return capabilities.contains(.previousValues) && !capabilities.contains(.insertOnly)
        case .previousValuesSurviveReopening:
            return capabilities.isSuperset(of: [.previousValues, .durable])
                && !capabilities.contains(.insertOnly)
        case .secondInstanceSeesCommits:
            return capabilities.contains(.multiProcess)
        case .insertOnlyRejectsUpdatesAtomically, .insertOnlyRejectsDeletesAtomically:
            return capabilities.contains(.insertOnly)
        case .historyUpdatesDeliverCommitsInOrder, .historyUpdatesRejectExpiredTokens,
            .commitSignalsFollowEveryCommit:
            return capabilities.contains(.historyUpdates)
        case .batchDeleteRemovesExactlyTheMatches, .batchDeleteIsOneTransaction,
            .batchDeleteAppliesDeleteRules:
            return capabilities.contains(.batchDeletes) && !capabilities.contains(.insertOnly)
        default:
            return true
        }
    }

    /// Whether the check opens stores with ``ConformanceFolder/schema`` (the relationship fixtures) rather
    /// than ``ConformanceItem/schema``.
    public var usesRelationshipFixtures: Bool {
        switch self {
        case .cascadeDeletesRelatedModels, .nullifyUpdatesTheInverse, .denyRefusesTheDelete,
            .danglingReferenceRejected, .inverseSidesStayConsistent, .toOneEditMovesTheInverse,
            .listEditsMergeWithTheStoredList, .uniqueUpsertMergesAListWithABaseline,
            .toManyListsNameEachModelOnce, .batchDeleteAppliesDeleteRules,
            .previousValuesOfOneSaveAreItsStartingValues:
            true
        default: false
        }
    }

    /// The implementation requirement the check enforces, as the protocols' documentation states it.
    public var requirement: String {
        switch self {
        case .toOneEditMovesTheInverse, .listEditsMergeWithTheStoredList:
            "DataStore: a save keeps both sides of a relationship with an inverse consistent with the rows the store holds, and merges a to-many edit with a baseline into the stored list."
        case .uniqueUpsertMergesAListWithABaseline:
            "DataStore: an insert whose unique value is taken updates the holder, and a to-many relationship the insert has a baseline for is merged into the holder's list as an update's is."
        case .toManyListsNameEachModelOnce:
            "DataStore: a to-many list holds each model once, where it first stands: one sent naming a model twice is stored naming it once."
        case .partialUpdatesMerge:
            "DataStore: an update is a change set: attributes it leaves out keep their stored values."
        case .conflictingUpdateRejectedUnderErrorPolicy:
            "DataStore: under MergePolicy.error, an update whose baseline differs from the stored value throws mergeConflict and nothing is saved."
        case .uniqueValueGivenUpIsFreeForAnInsert:
            "DataStore: a unique value that an update in a save gives up is free for the save's inserts, as a deleted model's is: the insert is a new model, not an upsert."
        case .conflictingUpsertRejectedUnderErrorPolicy:
            "DataStore: under MergePolicy.error, an insert that the store makes an update of the holder of its unique value is checked against its baselines as an update is: a stored value that differs throws mergeConflict and nothing is saved."
        case .cascadeDeletesRelatedModels, .nullifyUpdatesTheInverse, .denyRefusesTheDelete,
            .danglingReferenceRejected, .inverseSidesStayConsistent:
            "DataStore: a save applies the schema's relationship delete rules in its own transaction and refuses references to models the store does not hold."

        case .insertThenFetch, .updateThenFetch, .deleteThenFetch:
            "DataStore: `fetch` returns the committed state of every saved model."
        case .emptySaveRecordsNothing, .unchangedUpdateRecordsNothing:
            "HistoryProviding: every save that changes anything records exactly one transaction; one that changes nothing records none."
        case .fetchPredicateMatchesOracle, .fetchSortMatchesOracle, .fetchOffsetAndLimitMatchOracle,
            .fetchByIdentifier:
            "DataStore: `fetch` applies the descriptor's predicate, sort, offset and limit."
        case .fetchPredicateErrorIsTyped:
            "HistoryProviding: a predicate that throws surfaces as DataStoreError.predicateEvaluationFailed."
        case .oneTransactionPerSave:
            "HistoryProviding: every save that changes anything records exactly one transaction."
        case .historyInCommitOrder:
            "HistoryProviding: `fetchHistory` returns transactions in commit order unless `sortBy` says otherwise."
        case .changesInRequestOrder:
            "HistoryTransaction: changes are in the order they were made."
        case .oneChangePerModel, .changeKindsRecorded:
            "HistoryChange: one change per model instance, with its kind."
        case .updatedAttributesExact:
            "HistoryChange: `updatedAttributes` lists exactly the attributes whose value changed, sorted by name."
        case .tombstoneHoldsOnlyPreservedAttributes, .tombstoneValuesAreTheDeletedValues:
            "HistoryChange: `tombstone` holds exactly the `.preserveValueOnDeletion` attributes, with their values when deleted."
        case .changeDetailsOnlyWhereTheyBelong:
            "HistoryChange: `updatedAttributes` is empty for inserts and deletes; `tombstone` is nil except for deletes."
        case .authorRecorded, .bundleAndProcessRecorded:
            "HistoryTransaction: `author`, `bundleIdentifier` and `processIdentifier` describe the saving context and program."
        case .storeIdentifierRecorded:
            "DataStore: `identifier` equals the configuration's name and is recorded on transactions and identifiers."
        case .timestampsNondecreasing:
            "HistoryTransaction: `timestamp` never decreases along one store's history."
        case .recordedValuesExact:
            "ValueRecordingHistoryChange: an insert records every attribute, an update exactly the new values of the changed attributes, a delete none."
        case .identifiersUniqueAndIncreasing:
            "HistoryTransaction/HistoryChange: transaction identifiers are unique; change identifiers grow in commit order."
        case .tokensStrictlyIncrease, .tokenAfterSelectsLaterTransactions, .tokenAfterNewestIsEmpty:
            "HistoryToken: `a < b` means a names an earlier position; \"after t\" is exclusive."
        case .tokensRoundTripThroughCodable, .malformedTokenRejected:
            "HistoryToken: the Codable form is stable, versioned JSON; malformed data throws malformedHistoryToken."
        case .saveReturnsTheTransactionToken:
            "DataStore: the save result holds the token of the transaction the save created."
        case .historyFetchLimitHonoured, .historySortByReverse, .historyAuthorPredicate,
            .historyTimestampPredicate:
            "HistoryProviding: `fetchHistory` applies the predicate, then `sortBy`, then `fetchLimit`."
        case .foreignStoreTokenRejected, .tokenBeyondHistoryRejected:
            "HistoryProviding: a token of another store, or ahead of history, throws its own error."
        case .foreignEpochTokenRejected:
            "HistoryProviding: a token of an earlier epoch (the store was erased or recreated) throws historyTokenExpired(reason: .storeErasedOrRecreated)."
        case .deletedHistoryExpiresOlderTokens, .tokenAtTheCutStillWorks:
            "HistoryProviding: after `deleteHistory`, every token older than the newest deleted transaction expires."
        case .expiryCheckedBeforeAnyRead, .tokenValidatedBeforeReading:
            "HistoryProviding: tokens are validated before anything is read."
        case .schemaIsRecorded:
            "SchemaMigrating: the store persists its schema, version included, and `recordedSchema()` returns it."
        case .lightweightMigrationKeepsRows:
            "SchemaMigrating: `migrate(to:applying:)` applies the lightweight upgrade to every row."
        case .unsafeSchemaChangeRefused:
            "SchemaMigrating: an unsafe difference throws incompatibleSchema naming entity and attribute, and nothing is written."
        case .historySeeksInsteadOfScanning:
            "HistoryProviding: \"after my token\" seeks to the token instead of reading all history."
        case .latestTokenReadsFromTheNewestEnd:
            "HistoryProviding: a limited fetch sorted newest first reads from the newest end instead of sorting all history."
        case .deleteHistoryIgnoresFetchLimit:
            "HistoryProviding: `deleteHistory` deletes every transaction the predicate selects; `fetchLimit` and `sortBy` do not apply."
        case .eraseStartsANewEpoch:
            "DataStore: `erase` removes all data and history and draws a new epoch."
        case .failedSaveLeavesNothingBehind, .duplicateModelInRequestRejected:
            "DataStore: `save` is atomic: all changes commit as one transaction, or the store is unchanged and it throws."
        case .uniqueInsertUpserts:
            "DataStore: an insert whose unique value is taken updates the holder and reports the remapping."
        case .uniqueUpdateViolationRejected:
            "DataStore: an update that would duplicate a unique value throws uniqueConstraintViolation."
        case .missingModelRejected:
            "DataStore: an update or delete of a model the store does not hold throws modelNotFound."
        case .concurrentSavesRecordedOnce:
            "DataStore: the store is safe to call from many threads at once."
        case .previousValuesAreTheReplacedValues, .previousValuesOnlyWhereAsked,
            .previousValuesOfOneSaveAreItsStartingValues:
            "HistoryChange: `previousValues` holds, for an update, exactly the updated attributes marked `.preservePreviousValue` with their values before the save, and for a delete every such attribute; nil for inserts and where none applies."
        case .previousValuesSurviveReopening:
            "Durable stores: previous values are stored with history and survive reopening."
        case .reopenKeepsDataHistoryAndTokens:
            "Durable stores: an acknowledged save survives reopening, with its history and token."
        case .secondInstanceSeesCommits:
            "Multi-process stores: every instance open on a store sees the others' commits and continues one sequence."
        case .insertOnlyRejectsUpdatesAtomically, .insertOnlyRejectsDeletesAtomically:
            "Insert-only stores: updates and deletes throw unsupportedChange, and nothing from that save is kept."
        case .historyUpdatesDeliverCommitsInOrder:
            "HistoryObserving: the sequence yields the transactions after the token, then each new one, in commit order, each once."
        case .historyUpdatesRejectExpiredTokens:
            "HistoryObserving: a token that fetchHistory would reject ends the sequence with that error."
        case .commitSignalsFollowEveryCommit:
            "HistoryObserving: `commitSignals()` yields after each commit made after the call (three in turn), within 10 s."
        case .batchDeleteRemovesExactlyTheMatches:
            "DataStoreBatching: `delete(_:)` deletes exactly the models of the type that match the predicate when it commits; matching nothing commits nothing."
        case .batchDeleteIsOneTransaction:
            "DataStoreBatching: a batch delete is one transaction recording one delete per model, with its tombstone, under the request's editing state."
        case .batchDeleteAppliesDeleteRules:
            "DataStoreBatching: delete rules apply to a batch delete, in its transaction."
        }
    }
}
