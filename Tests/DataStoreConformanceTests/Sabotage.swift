import DataStoreConformance
import DataStoreCore

/// One deliberate defect, the check that must catch it, and the store it is planted in. There is one for
/// every check: `SabotageTests` asserts that the checks they target are exactly `ConformanceCase.allCases`.
enum Sabotage: String, CaseIterable, Sendable {
    // Round trips and fetching
    case fetchLosesAnAttribute, updatesNotApplied, deletesNotApplied, emptySaveReturnsAToken
    case unchangedUpdateReturnsAToken, fetchPredicateIgnored, fetchSortIgnored, fetchOffsetIgnored
    case identifierLookupReturnsEveryModel, predicateErrorUntyped
    // History
    case saveSplitIntoTransactions, historyNewestFirst, changesReordered, firstChangeRepeated
    case deletesRecordedAsUpdates, extraUpdatedAttribute, droppedTombstones, tombstoneHoldsInsertedValues
    case insertsListUpdatedAttributes, authorNotRecorded, bundleNotRecorded, transactionNamesAnotherStore
    case timestampsGoBackwards, updatesRecordUnchangedValues, changeIdentifiersRepeat
    // Previous values
    case previousValuesHoldTheNewValues, previousValuesForEveryAttribute, reopenForgetsPreviousValues
    case relationshipPreviousValuesDropped
    // Tokens
    case reusedTokens, tokenCodingLosesTheEpoch, saveReturnsThePreviousToken, afterIsInclusive
    case afterNewestRepeatsTheNewest, limitOffByOne, historySortIgnored, authorPredicateIgnored
    case timestampBoundExclusive, malformedTokenDecodes, foreignStoreAccepted, foreignEpochAccepted
    case tokenBeyondHistoryAccepted
    // Deleting history
    case expiredTokenIgnored, readsBeforeValidating, loadsHistoryBeforeValidating, scansAllHistory
    case sortsAllHistoryForTheNewest
    case deleteHistoryHonoursFetchLimit, deleteHistoryDeletesOneMore, eraseKeepsHistory
    // Saves
    case partialTransactionsVisible, upsertInsertsTwice, uniqueViolationUntyped, missingModelIgnored
    case duplicatesDropped, overlappingSavesLost, updatesReplaceWholeRows, mergePolicyIgnored
    // Capabilities
    case reopenForgetsEverything, instancesShareNothing, rejectedUpdateKeepsInserts
    case rejectedDeleteKeepsInserts, updatesSkipTheBacklog, updatesIgnoreExpiry, signalsMissCommits
    // Schemas
    case schemaNotRecorded, renamedValuesDropped, unsafeSchemaAccepted
    // Relationships
    case cascadeIgnored, nullifyIgnored, denyIgnored, danglingReferenceAccepted, toManyValuesDropped
    case inversesNotMaintained, listBaselinesIgnored, upsertBaselinesIgnored, upsertConflictsIgnored
    case insertsPlannedBeforeRenames, listRepeatsKept
    // Batch deletes
    case batchDeleteLeavesAMatch, batchDeleteSplitIntoTransactions, batchDeleteSkipsDeleteRules

    var caughtBy: ConformanceCase {
        switch self {
        case .fetchLosesAnAttribute: .insertThenFetch
        case .updatesNotApplied: .updateThenFetch
        case .deletesNotApplied: .deleteThenFetch
        case .emptySaveReturnsAToken: .emptySaveRecordsNothing
        case .unchangedUpdateReturnsAToken: .unchangedUpdateRecordsNothing
        case .fetchPredicateIgnored: .fetchPredicateMatchesOracle
        case .fetchSortIgnored: .fetchSortMatchesOracle
        case .fetchOffsetIgnored: .fetchOffsetAndLimitMatchOracle
        case .identifierLookupReturnsEveryModel: .fetchByIdentifier
        case .predicateErrorUntyped: .fetchPredicateErrorIsTyped
        case .saveSplitIntoTransactions: .oneTransactionPerSave
        case .historyNewestFirst: .historyInCommitOrder
        case .changesReordered: .changesInRequestOrder
        case .firstChangeRepeated: .oneChangePerModel
        case .deletesRecordedAsUpdates: .changeKindsRecorded
        case .extraUpdatedAttribute: .updatedAttributesExact
        case .droppedTombstones: .tombstoneHoldsOnlyPreservedAttributes
        case .tombstoneHoldsInsertedValues: .tombstoneValuesAreTheDeletedValues
        case .insertsListUpdatedAttributes: .changeDetailsOnlyWhereTheyBelong
        case .authorNotRecorded: .authorRecorded
        case .bundleNotRecorded: .bundleAndProcessRecorded
        case .transactionNamesAnotherStore: .storeIdentifierRecorded
        case .timestampsGoBackwards: .timestampsNondecreasing
        case .updatesRecordUnchangedValues: .recordedValuesExact
        case .changeIdentifiersRepeat: .identifiersUniqueAndIncreasing
        case .previousValuesHoldTheNewValues: .previousValuesAreTheReplacedValues
        case .previousValuesForEveryAttribute: .previousValuesOnlyWhereAsked
        case .reopenForgetsPreviousValues: .previousValuesSurviveReopening
        case .relationshipPreviousValuesDropped: .previousValuesOfOneSaveAreItsStartingValues
        case .reusedTokens: .tokensStrictlyIncrease
        case .tokenCodingLosesTheEpoch: .tokensRoundTripThroughCodable
        case .saveReturnsThePreviousToken: .saveReturnsTheTransactionToken
        case .afterIsInclusive: .tokenAfterSelectsLaterTransactions
        case .afterNewestRepeatsTheNewest: .tokenAfterNewestIsEmpty
        case .limitOffByOne: .historyFetchLimitHonoured
        case .historySortIgnored: .historySortByReverse
        case .authorPredicateIgnored: .historyAuthorPredicate
        case .timestampBoundExclusive: .historyTimestampPredicate
        case .malformedTokenDecodes: .malformedTokenRejected
        case .foreignStoreAccepted: .foreignStoreTokenRejected
        case .foreignEpochAccepted: .foreignEpochTokenRejected
        case .tokenBeyondHistoryAccepted: .tokenBeyondHistoryRejected
        case .expiredTokenIgnored: .deletedHistoryExpiresOlderTokens
        case .readsBeforeValidating: .expiryCheckedBeforeAnyRead
        case .loadsHistoryBeforeValidating: .tokenValidatedBeforeReading
        case .scansAllHistory: .historySeeksInsteadOfScanning
        case .sortsAllHistoryForTheNewest: .latestTokenReadsFromTheNewestEnd
        case .deleteHistoryHonoursFetchLimit: .deleteHistoryIgnoresFetchLimit
        case .deleteHistoryDeletesOneMore: .tokenAtTheCutStillWorks
        case .eraseKeepsHistory: .eraseStartsANewEpoch
        case .partialTransactionsVisible: .failedSaveLeavesNothingBehind
        case .upsertInsertsTwice: .uniqueInsertUpserts
        case .uniqueViolationUntyped: .uniqueUpdateViolationRejected
        case .missingModelIgnored: .missingModelRejected
        case .duplicatesDropped: .duplicateModelInRequestRejected
        case .overlappingSavesLost: .concurrentSavesRecordedOnce
        case .updatesReplaceWholeRows: .partialUpdatesMerge
        case .mergePolicyIgnored: .conflictingUpdateRejectedUnderErrorPolicy
        case .inversesNotMaintained: .toOneEditMovesTheInverse
        case .listBaselinesIgnored: .listEditsMergeWithTheStoredList
        case .upsertBaselinesIgnored: .uniqueUpsertMergesAListWithABaseline
        case .upsertConflictsIgnored: .conflictingUpsertRejectedUnderErrorPolicy
        case .insertsPlannedBeforeRenames: .uniqueValueGivenUpIsFreeForAnInsert
        case .listRepeatsKept: .toManyListsNameEachModelOnce
        case .reopenForgetsEverything: .reopenKeepsDataHistoryAndTokens
        case .instancesShareNothing: .secondInstanceSeesCommits
        case .rejectedUpdateKeepsInserts: .insertOnlyRejectsUpdatesAtomically
        case .rejectedDeleteKeepsInserts: .insertOnlyRejectsDeletesAtomically
        case .schemaNotRecorded: .schemaIsRecorded
        case .renamedValuesDropped: .lightweightMigrationKeepsRows
        case .unsafeSchemaAccepted: .unsafeSchemaChangeRefused
        case .cascadeIgnored: .cascadeDeletesRelatedModels
        case .nullifyIgnored: .nullifyUpdatesTheInverse
        case .denyIgnored: .denyRefusesTheDelete
        case .danglingReferenceAccepted: .danglingReferenceRejected
        case .toManyValuesDropped: .inverseSidesStayConsistent
        case .updatesSkipTheBacklog: .historyUpdatesDeliverCommitsInOrder
        case .updatesIgnoreExpiry: .historyUpdatesRejectExpiredTokens
        case .signalsMissCommits: .commitSignalsFollowEveryCommit
        case .batchDeleteLeavesAMatch: .batchDeleteRemovesExactlyTheMatches
        case .batchDeleteSplitIntoTransactions: .batchDeleteIsOneTransaction
        case .batchDeleteSkipsDeleteRules: .batchDeleteAppliesDeleteRules
        }
    }

    /// What the sabotaged store, and the correct store it is compared with, declare.
    var capabilities: ConformanceCapabilities {
        switch self {
        case .reopenForgetsEverything: [.durable]
        case .reopenForgetsPreviousValues: [.durable, .previousValues]
        case .previousValuesHoldTheNewValues, .previousValuesForEveryAttribute,
            .relationshipPreviousValuesDropped:
            [.previousValues]
        case .instancesShareNothing: [.multiProcess]
        case .rejectedUpdateKeepsInserts, .rejectedDeleteKeepsInserts: [.insertOnly]
        case .updatesSkipTheBacklog, .updatesIgnoreExpiry, .signalsMissCommits: [.historyUpdates]
        case .batchDeleteLeavesAMatch, .batchDeleteSplitIntoTransactions, .batchDeleteSkipsDeleteRules:
            [.batchDeletes]
        default: []
        }
    }

    /// The correct store that must pass the same check.
    enum CorrectStore { case inMemory, jsonFile, timeSeries }

    var correctStore: CorrectStore {
        switch self {
        case .reopenForgetsEverything, .instancesShareNothing, .reopenForgetsPreviousValues: .jsonFile
        case .rejectedUpdateKeepsInserts, .rejectedDeleteKeepsInserts: .timeSeries
        default: .inMemory
        }
    }
}
