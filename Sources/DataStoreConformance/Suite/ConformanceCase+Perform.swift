import DataStoreCore

extension ConformanceCase {
    /// Runs the check's body. The switch is exhaustive, so a new case cannot be left without a check.
    func perform<S>(with h: Harness<S>) async throws {
        switch self {
        case .insertThenFetch: try RoundTripChecks.insertThenFetch(h)
        case .updateThenFetch: try RoundTripChecks.updateThenFetch(h)
        case .deleteThenFetch: try RoundTripChecks.deleteThenFetch(h)
        case .emptySaveRecordsNothing: try RoundTripChecks.emptySaveRecordsNothing(h)
        case .unchangedUpdateRecordsNothing: try RoundTripChecks.unchangedUpdateRecordsNothing(h)
        case .fetchPredicateMatchesOracle: try FetchChecks.fetchPredicateMatchesOracle(h)
        case .fetchSortMatchesOracle: try FetchChecks.fetchSortMatchesOracle(h)
        case .fetchOffsetAndLimitMatchOracle: try FetchChecks.fetchOffsetAndLimitMatchOracle(h)
        case .fetchByIdentifier: try FetchChecks.fetchByIdentifier(h)
        case .fetchPredicateErrorIsTyped: try FetchChecks.fetchPredicateErrorIsTyped(h)
        case .previousValuesAreTheReplacedValues:
            try PreviousValueChecks.previousValuesAreTheReplacedValues(h)
        case .previousValuesOnlyWhereAsked: try PreviousValueChecks.previousValuesOnlyWhereAsked(h)
        case .previousValuesSurviveReopening: try PreviousValueChecks.previousValuesSurviveReopening(h)
        case .previousValuesOfOneSaveAreItsStartingValues:
            try PreviousValueChecks.previousValuesOfOneSaveAreItsStartingValues(h)
        case .oneTransactionPerSave: try HistoryChecks.oneTransactionPerSave(h)
        case .historyInCommitOrder: try HistoryChecks.historyInCommitOrder(h)
        case .changesInRequestOrder: try HistoryChecks.changesInRequestOrder(h)
        case .oneChangePerModel: try HistoryChecks.oneChangePerModel(h)
        case .changeKindsRecorded: try HistoryChecks.changeKindsRecorded(h)
        case .updatedAttributesExact: try HistoryChecks.updatedAttributesExact(h)
        case .tombstoneHoldsOnlyPreservedAttributes:
            try HistoryChecks.tombstoneHoldsOnlyPreservedAttributes(h)
        case .tombstoneValuesAreTheDeletedValues: try HistoryChecks.tombstoneValuesAreTheDeletedValues(h)
        case .changeDetailsOnlyWhereTheyBelong: try HistoryChecks.changeDetailsOnlyWhereTheyBelong(h)
        case .authorRecorded: try HistoryChecks.authorRecorded(h)
        case .bundleAndProcessRecorded: try HistoryChecks.bundleAndProcessRecorded(h)
        case .storeIdentifierRecorded: try HistoryChecks.storeIdentifierRecorded(h)
        case .timestampsNondecreasing: try HistoryChecks.timestampsNondecreasing(h)
        case .recordedValuesExact: try HistoryChecks.recordedValuesExact(h)
        case .identifiersUniqueAndIncreasing: try HistoryChecks.identifiersUniqueAndIncreasing(h)
        case .tokensStrictlyIncrease: try TokenChecks.tokensStrictlyIncrease(h)
        case .tokensRoundTripThroughCodable: try TokenChecks.tokensRoundTripThroughCodable(h)
        case .saveReturnsTheTransactionToken: try TokenChecks.saveReturnsTheTransactionToken(h)
        case .tokenAfterSelectsLaterTransactions: try TokenChecks.tokenAfterSelectsLaterTransactions(h)
        case .tokenAfterNewestIsEmpty: try TokenChecks.tokenAfterNewestIsEmpty(h)
        case .historyFetchLimitHonoured: try TokenChecks.historyFetchLimitHonoured(h)
        case .historySortByReverse: try TokenChecks.historySortByReverse(h)
        case .historyAuthorPredicate: try TokenChecks.historyAuthorPredicate(h)
        case .historyTimestampPredicate: try TokenChecks.historyTimestampPredicate(h)
        case .malformedTokenRejected: try TokenChecks.malformedTokenRejected(h)
        case .foreignStoreTokenRejected: try TokenChecks.foreignStoreTokenRejected(h)
        case .foreignEpochTokenRejected: try TokenChecks.foreignEpochTokenRejected(h)
        case .tokenBeyondHistoryRejected: try TokenChecks.tokenBeyondHistoryRejected(h)
        case .deletedHistoryExpiresOlderTokens: try DeletionChecks.deletedHistoryExpiresOlderTokens(h)
        case .tokenValidatedBeforeReading: try ReadChecks.tokenValidatedBeforeReading(h)
        case .historySeeksInsteadOfScanning: try ReadChecks.historySeeksInsteadOfScanning(h)
        case .latestTokenReadsFromTheNewestEnd: try ReadChecks.latestTokenReadsFromTheNewestEnd(h)
        case .schemaIsRecorded: try SchemaChecks.schemaIsRecorded(h)
        case .cascadeDeletesRelatedModels: try RelationshipChecks.cascadeDeletesRelatedModels(h)
        case .nullifyUpdatesTheInverse: try RelationshipChecks.nullifyUpdatesTheInverse(h)
        case .denyRefusesTheDelete: try RelationshipChecks.denyRefusesTheDelete(h)
        case .danglingReferenceRejected: try RelationshipChecks.danglingReferenceRejected(h)
        case .inverseSidesStayConsistent: try RelationshipChecks.inverseSidesStayConsistent(h)
        case .toOneEditMovesTheInverse: try RelationshipChecks.toOneEditMovesTheInverse(h)
        case .listEditsMergeWithTheStoredList: try RelationshipChecks.listEditsMergeWithTheStoredList(h)
        case .uniqueUpsertMergesAListWithABaseline:
            try RelationshipChecks.uniqueUpsertMergesAListWithABaseline(h)
        case .batchDeleteRemovesExactlyTheMatches:
            try BatchDeleteChecks.batchDeleteRemovesExactlyTheMatches(h)
        case .batchDeleteIsOneTransaction: try BatchDeleteChecks.batchDeleteIsOneTransaction(h)
        case .batchDeleteAppliesDeleteRules: try BatchDeleteChecks.batchDeleteAppliesDeleteRules(h)
        case .lightweightMigrationKeepsRows: try SchemaChecks.lightweightMigrationKeepsRows(h)
        case .unsafeSchemaChangeRefused: try SchemaChecks.unsafeSchemaChangeRefused(h)
        case .deleteHistoryIgnoresFetchLimit: try DeletionChecks.deleteHistoryIgnoresFetchLimit(h)
        case .secondInstanceSeesCommits: try CapabilityChecks.secondInstanceSeesCommits(h)
        case .expiryCheckedBeforeAnyRead: try DeletionChecks.expiryCheckedBeforeAnyRead(h)
        case .tokenAtTheCutStillWorks: try DeletionChecks.tokenAtTheCutStillWorks(h)
        case .eraseStartsANewEpoch: try DeletionChecks.eraseStartsANewEpoch(h)
        case .failedSaveLeavesNothingBehind: try SaveChecks.failedSaveLeavesNothingBehind(h)
        case .uniqueInsertUpserts: try SaveChecks.uniqueInsertUpserts(h)
        case .uniqueUpdateViolationRejected: try SaveChecks.uniqueUpdateViolationRejected(h)
        case .partialUpdatesMerge: try SaveChecks.partialUpdatesMerge(h)
        case .conflictingUpdateRejectedUnderErrorPolicy:
            try SaveChecks.conflictingUpdateRejectedUnderErrorPolicy(h)
        case .conflictingUpsertRejectedUnderErrorPolicy:
            try SaveChecks.conflictingUpsertRejectedUnderErrorPolicy(h)
        case .missingModelRejected: try SaveChecks.missingModelRejected(h)
        case .duplicateModelInRequestRejected: try SaveChecks.duplicateModelInRequestRejected(h)
        case .concurrentSavesRecordedOnce: try SaveChecks.concurrentSavesRecordedOnce(h)
        case .reopenKeepsDataHistoryAndTokens: try CapabilityChecks.reopenKeepsDataHistoryAndTokens(h)
        case .insertOnlyRejectsUpdatesAtomically: try CapabilityChecks.insertOnlyRejectsUpdatesAtomically(h)
        case .insertOnlyRejectsDeletesAtomically: try CapabilityChecks.insertOnlyRejectsDeletesAtomically(h)
        case .historyUpdatesDeliverCommitsInOrder:
            try await ObservationChecks.historyUpdatesDeliverCommitsInOrder(h)
        case .historyUpdatesRejectExpiredTokens:
            try await ObservationChecks.historyUpdatesRejectExpiredTokens(h)
        case .commitSignalsFollowEveryCommit:
            try await ObservationChecks.commitSignalsFollowEveryCommit(h)
        }
    }
}
