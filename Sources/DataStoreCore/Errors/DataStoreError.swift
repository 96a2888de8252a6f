import Foundation

/// Every error the package's stores, tokens and model layer throw.
///
/// Each case carries what a person needs to act on it: the store involved and the token, position, file or
/// model at fault. Match on the case to handle one condition, for example
/// `catch DataStoreError.historyTokenExpired { token = nil }` to start over as SwiftData advises.
/// ``description`` gives a full sentence for logs.
public enum DataStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The token is stale: the history it points into was deleted, or the store was erased or recreated
    /// since (``HistoryTokenExpiry`` says which). Discard it and fetch from the beginning.
    case historyTokenExpired(
        store: String, tokenSequence: Int64, oldestValidSequence: Int64,
        reason: HistoryTokenExpiry = .historyDeleted)
    /// The token belongs to a different store.
    case historyTokenFromAnotherStore(store: String, tokenStore: String)
    /// The token names a position this store has not reached, so it cannot have come from it.
    case historyTokenBeyondHistory(store: String, tokenSequence: Int64, latestSequence: Int64)
    /// The token's bytes do not decode, or decode to impossible values.
    case malformedHistoryToken(reason: String)
    /// A composite token or save names a store that the container does not have.
    case unknownStore(store: String)
    /// The store does not accept this kind of change (for example an update in an insert-only store).
    case unsupportedChange(store: String, kind: HistoryChangeKind, entity: String)
    /// A store file is damaged at the given byte offset. Nothing was changed on disk.
    case corruptStoreFile(path: String, offset: Int64, reason: String)
    /// The store was opened read-only and cannot save.
    case readOnlyStore(store: String)
    /// A save would give two models the same value of a `.unique` attribute, and upsert cannot apply
    /// (the conflicting change is an update, not an insert).
    case uniqueConstraintViolation(store: String, entity: String, attribute: String, value: String)
    /// A save updates or deletes a model that the store does not hold.
    case modelNotFound(store: String, identifier: PersistentIdentifier)
    /// A save or fetch names an entity that is not in the store's schema.
    case unknownEntity(store: String, entity: String)
    /// A save request contradicts itself, for example by naming one model twice.
    case invalidSave(store: String, reason: String)
    /// A predicate threw while it was evaluated; nothing was changed.
    case predicateEvaluationFailed(store: String, reason: String)
    /// A persisted value does not convert to the attribute's Swift type.
    case attributeTypeMismatch(entity: String, attribute: String, expected: String, found: String)
    /// `enumerate` was called on a context with unsaved changes without `allowEscapingMutations`.
    case unsavedChangesDuringEnumeration(changeCount: Int)
    /// The model type is not part of the container's schema.
    case modelTypeNotInContainer(entity: String)
    /// A container's configurations contradict each other or its model types.
    case invalidConfiguration(reason: String)
    /// The store's files cannot be read or written: missing, not writable, or a failing system call.
    case storageUnavailable(path: String, reason: String)
    /// A store file was written by a newer format version than this package reads. Nothing was changed.
    case unsupportedFormatVersion(path: String, found: Int, supported: Int)
    /// The store is busy: another process held its lock for longer than the store's busy timeout.
    case storeLocked(path: String)
    /// A write failed and so did cutting the rejected record back off the file: this store instance no longer
    /// knows what its file holds and refuses every call until it is reopened (as SQLite does after an I/O
    /// error). The rejected record was made unreadable as far as the disk allowed; reopening cuts it back.
    case storeUnusableUntilReopened(path: String, reason: String)
    /// The store cannot delete the selected history, for example a time-series store asked to delete
    /// transactions that are not the oldest ones. Nothing was deleted.
    case historyDeletionUnsupported(store: String, reason: String)

    /// A sentence that names what went wrong and where.
    public var description: String {
        switch self {
        case .historyTokenExpired(let store, let sequence, let oldest, .historyDeleted):
            "History token at sequence \(sequence) for store '\(store)' has expired: history before "
                + "sequence \(oldest) was deleted. Discard the token and fetch history from the beginning."
        case .historyTokenExpired(let store, _, _, .storeErasedOrRecreated(let tokenEpoch, let storeEpoch)):
            "History token for store '\(store)' has expired: it comes from epoch \(tokenEpoch), but the store was "
                + "erased or recreated and is now at epoch \(storeEpoch). Discard the token and fetch history "
                + "from the beginning."
        case .historyTokenFromAnotherStore(let store, let tokenStore):
            "History token belongs to store '\(tokenStore)', not to store '\(store)'."
        case .historyTokenBeyondHistory(let store, let sequence, let latest):
            "History token at sequence \(sequence) is ahead of store '\(store)', whose latest sequence is "
                + "\(latest)."
        case .malformedHistoryToken(let reason):
            "Malformed history token: \(reason)"
        case .unknownStore(let store):
            "The container has no store named '\(store)'."
        case .unsupportedChange(let store, let kind, let entity):
            "Store '\(store)' does not support \(kind) changes (entity \(entity)); nothing from this save was kept."
        case .corruptStoreFile(let path, let offset, let reason):
            "Store file \(path) is corrupt at byte offset \(offset): \(reason). The file was left unchanged."
        case .readOnlyStore(let store):
            "Store '\(store)' is read-only."
        case .uniqueConstraintViolation(let store, let entity, let attribute, let value):
            "Store '\(store)': another \(entity) already has \(attribute) = \(value)."
        case .modelNotFound(let store, let identifier):
            "Store '\(store)' holds no model \(identifier)."
        case .unknownEntity(let store, let entity):
            "Store '\(store)' has no entity named '\(entity)' in its schema."
        case .invalidSave(let store, let reason):
            "Invalid save to store '\(store)': \(reason)"
        case .predicateEvaluationFailed(let store, let reason):
            "A predicate failed while store '\(store)' evaluated it: \(reason)"
        case .attributeTypeMismatch(let entity, let attribute, let expected, let found):
            "\(entity).\(attribute) expects \(expected) but the store holds a \(found) value."
        case .unsavedChangesDuringEnumeration(let count):
            "enumerate found \(count) unsaved change(s) in the context; save first or pass "
                + "allowEscapingMutations: true."
        case .modelTypeNotInContainer(let entity):
            "Entity '\(entity)' is not part of the container's schema."
        case .invalidConfiguration(let reason):
            "Invalid configuration: \(reason)"
        case .storageUnavailable(let path, let reason):
            "Store files at \(path) are unavailable: \(reason)"
        case .unsupportedFormatVersion(let path, let found, let supported):
            "\(path) has format version \(found); this version of the package reads up to \(supported). "
                + "The file was left unchanged."
        case .storeLocked(let path):
            "Another process holds the lock on the store at \(path); gave up waiting for it."
        case .storeUnusableUntilReopened(let path, let reason):
            "The store at \(path) must be reopened before it is used again: \(reason)."
        case .historyDeletionUnsupported(let store, let reason):
            "Store '\(store)' cannot delete that history: \(reason). Nothing was deleted."
        }
    }
}
