extension DataStoreError {
    /// What went wrong, as an open set of named conditions: new codes can be added in later versions without
    /// breaking code that handles the existing ones (so a `switch` over codes needs a `default`).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The condition's name, the same as the static member's (`"historyTokenExpired"`).
        public let name: String

        /// Creates a code. Backends outside this package may define codes of their own.
        public init(_ name: String) { self.name = name }

        /// The condition's name.
        public var description: String { name }

        /// The token is stale: its history was deleted, or the store was erased or recreated.
        public static let historyTokenExpired = Code("historyTokenExpired")
        /// The token belongs to a different store.
        public static let historyTokenFromAnotherStore = Code("historyTokenFromAnotherStore")
        /// The token names a position the store has not reached.
        public static let historyTokenBeyondHistory = Code("historyTokenBeyondHistory")
        /// The token's bytes do not decode, or decode to impossible values.
        public static let malformedHistoryToken = Code("malformedHistoryToken")
        /// A composite token or save names a store the container does not have.
        public static let unknownStore = Code("unknownStore")
        /// The store does not accept this kind of change.
        public static let unsupportedChange = Code("unsupportedChange")
        /// A store file is damaged.
        public static let corruptStoreFile = Code("corruptStoreFile")
        /// The store was opened read-only.
        public static let readOnlyStore = Code("readOnlyStore")
        /// A save would break a unique constraint and upsert cannot apply.
        public static let uniqueConstraintViolation = Code("uniqueConstraintViolation")
        /// A save updates or deletes a model the store does not hold.
        public static let modelNotFound = Code("modelNotFound")
        /// A save or fetch names an entity that is not in the store's schema.
        public static let unknownEntity = Code("unknownEntity")
        /// A save request contradicts itself.
        public static let invalidSave = Code("invalidSave")
        /// A predicate threw while it was evaluated.
        public static let predicateEvaluationFailed = Code("predicateEvaluationFailed")
        /// A persisted value does not convert to the attribute's Swift type.
        public static let attributeTypeMismatch = Code("attributeTypeMismatch")
        /// `enumerate` found unsaved changes.
        public static let unsavedChangesDuringEnumeration = Code("unsavedChangesDuringEnumeration")
        /// The model type is not part of the container's schema.
        public static let modelTypeNotInContainer = Code("modelTypeNotInContainer")
        /// A container's configurations contradict each other or its model types.
        public static let invalidConfiguration = Code("invalidConfiguration")
        /// The store's files cannot be read or written.
        public static let storageUnavailable = Code("storageUnavailable")
        /// A store file was written by a newer format version.
        public static let unsupportedFormatVersion = Code("unsupportedFormatVersion")
        /// Another process held the store's lock for longer than the busy timeout.
        public static let storeLocked = Code("storeLocked")
        /// A failed write left the store instance unusable until it is reopened.
        public static let storeUnusableUntilReopened = Code("storeUnusableUntilReopened")
        /// The store cannot delete the selected history.
        public static let historyDeletionUnsupported = Code("historyDeletionUnsupported")
        /// The store holds data in a schema that the opening schema cannot read without a migration plan.
        public static let incompatibleSchema = Code("incompatibleSchema")
        /// Another process migrated the store to a different schema while this instance was open.
        public static let schemaChanged = Code("schemaChanged")
        /// A migration plan's schemas and stages do not fit together, or do not fit the store.
        public static let invalidMigrationPlan = Code("invalidMigrationPlan")
        /// A migration stage failed; the store stays at the last version it completed.
        public static let migrationFailed = Code("migrationFailed")
        /// A relationship is declared wrongly, or a save would store a reference it cannot hold.
        public static let invalidRelationship = Code("invalidRelationship")
        /// A delete is refused by a `.deny` delete rule: the relationship still holds models.
        public static let deleteDenied = Code("deleteDenied")
        /// Under ``MergePolicy/error``, another context or process changed an attribute this save changes since
        /// the saver read it. Nothing was saved.
        public static let mergeConflict = Code("mergeConflict")
        /// The model container was closed: its contexts and stores are not used again.
        public static let containerClosed = Code("containerClosed")
        /// A store declines a fetch's predicate: the model layer fetches without it and filters in Swift.
        public static let preferInMemoryFilter = Code("preferInMemoryFilter")
        /// A store declines a fetch's sort: the model layer fetches without it and sorts in Swift.
        public static let preferInMemorySort = Code("preferInMemorySort")
        /// A predicate that neither the store nor Swift can evaluate (for example one on a value stored
        /// opaquely).
        public static let invalidPredicate = Code("invalidPredicate")
        /// The store does not offer a feature the request needs, and the model layer has no fallback for it.
        public static let unsupportedFeature = Code("unsupportedFeature")
        /// The store records a schema the app does not know: a version newer than the app's, or one its migration
        /// plan does not list (SwiftData's `unknownDataStoreSchema`). Nothing was written.
        public static let unknownDataStoreSchema = Code("unknownDataStoreSchema")
        /// An undo or redo would overwrite what another author changed since: a later transaction changed an
        /// attribute it would restore, deleted a model it would change, or took a unique value it would give
        /// back. Nothing was written.
        public static let undoConflict = Code("undoConflict")
        /// There is nothing to undo or redo, or what the step needs is gone: history trimmed past its
        /// transaction, the store erased, previous values not recorded, or the transaction written by a newer
        /// schema. Nothing was written.
        public static let undoUnavailable = Code("undoUnavailable")
    }
}
