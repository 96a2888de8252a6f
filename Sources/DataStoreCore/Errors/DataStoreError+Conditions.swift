extension DataStoreError {
    // Each condition has a pattern (a static property, matched by code in `catch`) and a factory (a static
    // method with the details that condition carries), as SwiftData's error structs do.

    /// Matches every ``Code/historyTokenExpired`` error in a `catch` or `case` pattern.
    public static let historyTokenExpired = DataStoreError(.historyTokenExpired)

    /// The token is stale: the history it points into was deleted, or the store was erased or recreated
    /// since (``tokenExpiry`` says which). Discard it and fetch from the beginning.
    public static func historyTokenExpired(
        store: String, tokenSequence: Int64, oldestValidSequence: Int64,
        reason: HistoryTokenExpiry = .historyDeleted
    ) -> DataStoreError {
        DataStoreError(
            .historyTokenExpired, store: store, tokenSequence: tokenSequence,
            oldestValidSequence: oldestValidSequence, tokenExpiry: reason)
    }

    /// Matches every ``Code/historyTokenFromAnotherStore`` error in a `catch` or `case` pattern.
    public static let historyTokenFromAnotherStore = DataStoreError(.historyTokenFromAnotherStore)

    /// The token belongs to a different store.
    public static func historyTokenFromAnotherStore(store: String, tokenStore: String) -> DataStoreError {
        DataStoreError(.historyTokenFromAnotherStore, store: store, tokenStore: tokenStore)
    }

    /// Matches every ``Code/historyTokenBeyondHistory`` error in a `catch` or `case` pattern.
    public static let historyTokenBeyondHistory = DataStoreError(.historyTokenBeyondHistory)

    /// The token names a position this store has not reached, so it cannot have come from it.
    public static func historyTokenBeyondHistory(store: String, tokenSequence: Int64, latestSequence: Int64)
        -> DataStoreError
    {
        DataStoreError(
            .historyTokenBeyondHistory, store: store, tokenSequence: tokenSequence,
            latestSequence: latestSequence)
    }

    /// Matches every ``Code/malformedHistoryToken`` error in a `catch` or `case` pattern.
    public static let malformedHistoryToken = DataStoreError(.malformedHistoryToken)

    /// The token's bytes do not decode, or decode to impossible values.
    public static func malformedHistoryToken(reason: String) -> DataStoreError {
        DataStoreError(.malformedHistoryToken, reason: reason)
    }

    /// Matches every ``Code/unknownStore`` error in a `catch` or `case` pattern.
    public static let unknownStore = DataStoreError(.unknownStore)

    /// A composite token or save names a store that the container does not have.
    public static func unknownStore(store: String) -> DataStoreError {
        DataStoreError(.unknownStore, store: store)
    }

    /// Matches every ``Code/unsupportedChange`` error in a `catch` or `case` pattern.
    public static let unsupportedChange = DataStoreError(.unsupportedChange)

    /// The store does not accept this kind of change (for example an update in an insert-only store).
    public static func unsupportedChange(store: String, kind: HistoryChangeKind, entity: String)
        -> DataStoreError
    {
        DataStoreError(.unsupportedChange, store: store, entity: entity, changeKind: kind)
    }

    /// Matches every ``Code/corruptStoreFile`` error in a `catch` or `case` pattern.
    public static let corruptStoreFile = DataStoreError(.corruptStoreFile)

    /// A store file is damaged at the given byte offset. Nothing was changed on disk.
    public static func corruptStoreFile(path: String, offset: Int64, reason: String) -> DataStoreError {
        DataStoreError(.corruptStoreFile, path: path, offset: offset, reason: reason)
    }

    /// Matches every ``Code/containerClosed`` error in a `catch` or `case` pattern.
    public static let containerClosed = DataStoreError(.containerClosed)

    /// The model container over `stores` was closed (`ModelContainer.close()`), so a context of it cannot fetch,
    /// save or read history any more. Nothing was read or written.
    public static func containerClosed(stores: [String]) -> DataStoreError {
        DataStoreError(.containerClosed, reason: stores.joined(separator: ", "))
    }

    /// Matches every ``Code/readOnlyStore`` error in a `catch` or `case` pattern.
    public static let readOnlyStore = DataStoreError(.readOnlyStore)

    /// The store was opened read-only and cannot save.
    public static func readOnlyStore(store: String) -> DataStoreError {
        DataStoreError(.readOnlyStore, store: store)
    }

    /// Matches every ``Code/uniqueConstraintViolation`` error in a `catch` or `case` pattern.
    public static let uniqueConstraintViolation = DataStoreError(.uniqueConstraintViolation)

    /// A save would give two models the same value of a `.unique` attribute (or attribute set), and upsert
    /// cannot apply (the conflicting change is an update, not an insert).
    public static func uniqueConstraintViolation(
        store: String, entity: String, attribute: String, value: String
    ) -> DataStoreError {
        DataStoreError(
            .uniqueConstraintViolation, store: store, entity: entity, attribute: attribute, value: value)
    }

    /// Matches every ``Code/modelNotFound`` error in a `catch` or `case` pattern.
    public static let modelNotFound = DataStoreError(.modelNotFound)

    /// A save updates or deletes a model that the store does not hold.
    public static func modelNotFound(store: String, identifier: PersistentIdentifier) -> DataStoreError {
        DataStoreError(.modelNotFound, store: store, identifier: identifier)
    }

    /// Matches every ``Code/unknownEntity`` error in a `catch` or `case` pattern.
    public static let unknownEntity = DataStoreError(.unknownEntity)

    /// A save or fetch names an entity that is not in the store's schema.
    public static func unknownEntity(store: String, entity: String) -> DataStoreError {
        DataStoreError(.unknownEntity, store: store, entity: entity)
    }

    /// Matches every ``Code/invalidSave`` error in a `catch` or `case` pattern.
    public static let invalidSave = DataStoreError(.invalidSave)

    /// A save request contradicts itself, for example by naming one model twice.
    public static func invalidSave(store: String, reason: String) -> DataStoreError {
        DataStoreError(.invalidSave, store: store, reason: reason)
    }

    /// Matches every ``Code/predicateEvaluationFailed`` error in a `catch` or `case` pattern.
    public static let predicateEvaluationFailed = DataStoreError(.predicateEvaluationFailed)

    /// A predicate threw while it was evaluated; nothing was changed.
    public static func predicateEvaluationFailed(store: String, reason: String) -> DataStoreError {
        DataStoreError(.predicateEvaluationFailed, store: store, reason: reason)
    }

    /// Matches every ``Code/attributeTypeMismatch`` error in a `catch` or `case` pattern.
    public static let attributeTypeMismatch = DataStoreError(.attributeTypeMismatch)

    /// A persisted value does not convert to the attribute's Swift type.
    public static func attributeTypeMismatch(
        entity: String, attribute: String, expected: String, found: String
    ) -> DataStoreError {
        DataStoreError(
            .attributeTypeMismatch, entity: entity, attribute: attribute, expectedType: expected,
            foundType: found)
    }

    /// Matches every ``Code/unsavedChangesDuringEnumeration`` error in a `catch` or `case` pattern.
    public static let unsavedChangesDuringEnumeration = DataStoreError(.unsavedChangesDuringEnumeration)

    /// `enumerate` was called on a context with unsaved changes without `allowEscapingMutations`.
    public static func unsavedChangesDuringEnumeration(changeCount: Int) -> DataStoreError {
        DataStoreError(.unsavedChangesDuringEnumeration, changeCount: changeCount)
    }

    /// Matches every ``Code/modelTypeNotInContainer`` error in a `catch` or `case` pattern.
    public static let modelTypeNotInContainer = DataStoreError(.modelTypeNotInContainer)

    /// The model type is not part of the container's schema.
    public static func modelTypeNotInContainer(entity: String) -> DataStoreError {
        DataStoreError(.modelTypeNotInContainer, entity: entity)
    }

    /// Matches every ``Code/invalidConfiguration`` error in a `catch` or `case` pattern.
    public static let invalidConfiguration = DataStoreError(.invalidConfiguration)

    /// A container's configurations contradict each other or its model types.
    public static func invalidConfiguration(reason: String) -> DataStoreError {
        DataStoreError(.invalidConfiguration, reason: reason)
    }

    /// Matches every ``Code/storageUnavailable`` error in a `catch` or `case` pattern.
    public static let storageUnavailable = DataStoreError(.storageUnavailable)

    /// The store's files cannot be read or written: missing, not writable, or a failing system call
    /// (then ``underlyingError`` is the `POSIXError`).
    public static func storageUnavailable(
        path: String, reason: String, underlyingError: (any Error & Sendable)? = nil
    ) -> DataStoreError {
        DataStoreError(.storageUnavailable, path: path, reason: reason, underlyingError: underlyingError)
    }

    /// Matches every ``Code/unsupportedFormatVersion`` error in a `catch` or `case` pattern.
    public static let unsupportedFormatVersion = DataStoreError(.unsupportedFormatVersion)

    /// A store file was written by a newer format version than this package reads. Nothing was changed.
    public static func unsupportedFormatVersion(path: String, found: Int, supported: Int) -> DataStoreError {
        DataStoreError(
            .unsupportedFormatVersion, path: path, formatVersion: found, supportedFormatVersion: supported)
    }

    /// Matches every ``Code/storeLocked`` error in a `catch` or `case` pattern.
    public static let storeLocked = DataStoreError(.storeLocked)

    /// The store is busy: another process held its lock for longer than the store's busy timeout.
    public static func storeLocked(path: String) -> DataStoreError {
        DataStoreError(.storeLocked, path: path)
    }

    /// Matches every ``Code/storeUnusableUntilReopened`` error in a `catch` or `case` pattern.
    public static let storeUnusableUntilReopened = DataStoreError(.storeUnusableUntilReopened)

    /// A write failed and so did cutting the rejected record back off the file: this store instance no longer
    /// knows what its file holds and refuses every call until it is reopened (as SQLite does after an I/O
    /// error). The rejected record was made unreadable as far as the disk allowed; reopening cuts it back.
    public static func storeUnusableUntilReopened(path: String, reason: String) -> DataStoreError {
        DataStoreError(.storeUnusableUntilReopened, path: path, reason: reason)
    }

    /// Matches every ``Code/incompatibleSchema`` error in a `catch` or `case` pattern.
    public static let incompatibleSchema = DataStoreError(.incompatibleSchema)

    /// The store holds data in a schema that the opening schema cannot read without a migration plan: a value
    /// kind changed, `.unique` was added where stored values collide, or an entity that holds rows was removed.
    /// `attribute` is `nil` for a difference of the whole entity. Nothing was written.
    public static func incompatibleSchema(store: String, entity: String, attribute: String?, reason: String)
        -> DataStoreError
    {
        DataStoreError(
            .incompatibleSchema, store: store, entity: entity, attribute: attribute, reason: reason)
    }

    /// Matches every ``Code/schemaChanged`` error in a `catch` or `case` pattern.
    public static let schemaChanged = DataStoreError(.schemaChanged)

    /// Another process migrated the store while this instance was open; reopen it with the new schema (an
    /// app still running the old version of its models cannot read the new rows correctly).
    public static func schemaChanged(store: String, reason: String) -> DataStoreError {
        DataStoreError(.schemaChanged, store: store, reason: reason)
    }

    /// Matches every ``Code/invalidMigrationPlan`` error in a `catch` or `case` pattern.
    public static let invalidMigrationPlan = DataStoreError(.invalidMigrationPlan)

    /// A migration plan's schemas and stages do not chain, or the store's version is not in the plan.
    public static func invalidMigrationPlan(reason: String) -> DataStoreError {
        DataStoreError(.invalidMigrationPlan, reason: reason)
    }

    /// Matches every ``Code/invalidRelationship`` error in a `catch` or `case` pattern.
    public static let invalidRelationship = DataStoreError(.invalidRelationship)

    /// A relationship is declared wrongly (its destination is outside the schema or in another store, its
    /// inverse does not point back), or a save would make it hold a model it cannot (a deleted model, a model
    /// of another container). `identifier` names the offending related model when there is one. Nothing was
    /// saved.
    public static func invalidRelationship(
        entity: String, relationship: String, identifier: PersistentIdentifier? = nil, reason: String
    ) -> DataStoreError {
        DataStoreError(
            .invalidRelationship, entity: entity, attribute: relationship, identifier: identifier,
            reason: reason)
    }

    /// Matches every ``Code/deleteDenied`` error in a `catch` or `case` pattern.
    public static let deleteDenied = DataStoreError(.deleteDenied)

    /// Deleting `identifier` is refused because its `.deny` relationship still holds models (`changeCount` of
    /// them). Nothing was saved.
    public static func deleteDenied(
        store: String, identifier: PersistentIdentifier, relationship: String, relatedCount: Int
    ) -> DataStoreError {
        DataStoreError(
            .deleteDenied, store: store, entity: identifier.entityName, attribute: relationship,
            identifier: identifier, changeCount: relatedCount)
    }

    /// Matches every ``Code/migrationFailed`` error in a `catch` or `case` pattern.
    public static let migrationFailed = DataStoreError(.migrationFailed)

    /// A migration stage failed (`underlyingError` holds what its closure threw); the store is left at the
    /// last version it completed.
    public static func migrationFailed(
        store: String, reason: String, underlyingError: (any Error & Sendable)? = nil
    ) -> DataStoreError {
        DataStoreError(.migrationFailed, store: store, reason: reason, underlyingError: underlyingError)
    }

    /// Matches every ``Code/historyDeletionUnsupported`` error in a `catch` or `case` pattern.
    public static let historyDeletionUnsupported = DataStoreError(.historyDeletionUnsupported)

    /// The store cannot delete the selected history, for example a time-series store asked to delete
    /// transactions that are not the oldest ones. Nothing was deleted.
    public static func historyDeletionUnsupported(store: String, reason: String) -> DataStoreError {
        DataStoreError(.historyDeletionUnsupported, store: store, reason: reason)
    }

    /// Matches every ``Code/mergeConflict`` error in a `catch` or `case` pattern.
    public static let mergeConflict = DataStoreError(.mergeConflict)

    /// Under ``MergePolicy/error``, the stored values of `attributes` of `identifier` differ from the values
    /// the saver last read: another context or process changed them. `conflictCount` models conflicted in all
    /// (the first is named). Nothing was saved.
    public static func mergeConflict(
        store: String, identifier: PersistentIdentifier, attributes: [String], conflictCount: Int = 1
    ) -> DataStoreError {
        DataStoreError(
            .mergeConflict, store: store, entity: identifier.entityName,
            attribute: attributes.joined(separator: ", "), identifier: identifier, changeCount: conflictCount)
    }

    /// Matches every ``Code/preferInMemoryFilter`` error in a `catch` or `case` pattern; a store throws it from
    /// `fetch` (or a batch delete) to decline the predicate, as in SwiftData:
    /// `throw DataStoreError.preferInMemoryFilter`.
    public static let preferInMemoryFilter = DataStoreError(.preferInMemoryFilter)

    /// Matches every ``Code/preferInMemorySort`` error in a `catch` or `case` pattern; a store throws it from
    /// `fetch` to decline the sort, as in SwiftData: `throw DataStoreError.preferInMemorySort`.
    public static let preferInMemorySort = DataStoreError(.preferInMemorySort)

    /// Matches every ``Code/invalidPredicate`` error in a `catch` or `case` pattern.
    public static let invalidPredicate = DataStoreError(.invalidPredicate)

    /// A predicate that neither the store nor Swift can evaluate; `reason` says which part.
    public static func invalidPredicate(store: String, entity: String, reason: String) -> DataStoreError {
        DataStoreError(.invalidPredicate, store: store, entity: entity, reason: reason)
    }

    /// Matches every ``Code/unsupportedFeature`` error in a `catch` or `case` pattern.
    public static let unsupportedFeature = DataStoreError(.unsupportedFeature)

    /// The store does not offer what the request needs; `reason` names it.
    public static func unsupportedFeature(store: String, reason: String) -> DataStoreError {
        DataStoreError(.unsupportedFeature, store: store, reason: reason)
    }

    /// Matches every ``Code/unknownDataStoreSchema`` error in a `catch` or `case` pattern.
    public static let unknownDataStoreSchema = DataStoreError(.unknownDataStoreSchema)

    /// Store `store` records a schema the app does not know; `reason` names its version and the versions the app
    /// knows. Nothing was written.
    public static func unknownDataStoreSchema(store: String, reason: String) -> DataStoreError {
        DataStoreError(.unknownDataStoreSchema, store: store, reason: reason)
    }

    /// Matches every ``Code/undoConflict`` error in a `catch` or `case` pattern.
    public static let undoConflict = DataStoreError(.undoConflict)

    /// An undo or redo would restore `attribute` of `identifier` in `store`, which a later transaction changed;
    /// `reason` names that transaction and its author. Nothing was written.
    public static func undoConflict(
        store: String, identifier: PersistentIdentifier, attribute: String, reason: String
    ) -> DataStoreError {
        DataStoreError(
            .undoConflict, store: store, entity: identifier.entityName, attribute: attribute,
            identifier: identifier, reason: reason)
    }

    /// Matches every ``Code/undoUnavailable`` error in a `catch` or `case` pattern.
    public static let undoUnavailable = DataStoreError(.undoUnavailable)

    /// An undo or redo cannot be done; `reason` says why. Nothing was written.
    public static func undoUnavailable(
        store: String? = nil, reason: String, underlyingError: (any Error & Sendable)? = nil
    ) -> DataStoreError {
        DataStoreError(.undoUnavailable, store: store, reason: reason, underlyingError: underlyingError)
    }
}
