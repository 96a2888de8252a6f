extension DataStoreError {
    /// A sentence that names what went wrong and where.
    public var description: String {
        let store = self.store ?? "?"
        let path = self.path ?? "?"
        let reason = self.reason ?? "no reason given"
        switch code {
        case .historyTokenExpired:
            if case .storeErasedOrRecreated(let tokenEpoch, let storeEpoch) = tokenExpiry {
                return
                    "History token for store '\(store)' has expired: it comes from epoch \(tokenEpoch), but the "
                    + "store was erased or recreated and is now at epoch \(storeEpoch). Discard the token and fetch "
                    + "history from the beginning."
            }
            return
                "History token at sequence \(tokenSequence ?? 0) for store '\(store)' has expired: history "
                + "before sequence \(oldestValidSequence ?? 0) was deleted. Discard the token and fetch history "
                + "from the beginning."
        case .historyTokenFromAnotherStore:
            return "History token belongs to store '\(tokenStore ?? "?")', not to store '\(store)'."
        case .historyTokenBeyondHistory:
            return
                "History token at sequence \(tokenSequence ?? 0) is ahead of store '\(store)', whose latest "
                + "sequence is \(latestSequence ?? 0)."
        case .malformedHistoryToken:
            return "Malformed history token: \(reason)"
        case .unknownStore:
            return "The container has no store named '\(store)'."
        case .unsupportedChange:
            let kind = changeKind.map { "\($0)" } ?? "such"
            return
                "Store '\(store)' does not support \(kind) changes (entity \(entity ?? "?")); nothing from this "
                + "save was kept."
        case .corruptStoreFile:
            return
                "Store file \(path) is corrupt at byte offset \(offset ?? 0): \(reason). The file was left "
                + "unchanged."
        case .readOnlyStore:
            return "Store '\(store)' is read-only."
        case .uniqueConstraintViolation:
            return
                "Store '\(store)': another \(entity ?? "model") already has \(attribute ?? "?") = \(value ?? "?")."
        case .modelNotFound:
            return "Store '\(store)' holds no model \(identifier.map { "\($0)" } ?? "?")."
        case .unknownEntity:
            return "Store '\(store)' has no entity named '\(entity ?? "?")' in its schema."
        case .invalidSave:
            return "Invalid save to store '\(store)': \(reason)"
        case .predicateEvaluationFailed:
            return "A predicate failed while store '\(store)' evaluated it: \(reason)"
        case .attributeTypeMismatch:
            return
                "\(entity ?? "?").\(attribute ?? "?") expects \(expectedType ?? "?") but the store holds a "
                + "\(foundType ?? "?") value."
        case .unsavedChangesDuringEnumeration:
            return "enumerate found \(changeCount ?? 0) unsaved change(s) in the context; save first or pass "
                + "allowEscapingMutations: true."
        case .modelTypeNotInContainer:
            return "Entity '\(entity ?? "?")' is not part of the container's schema."
        case .invalidConfiguration:
            return "Invalid configuration: \(reason)"
        case .storageUnavailable:
            return "Store files at \(path) are unavailable: \(reason)"
        case .unsupportedFormatVersion:
            return
                "\(path) has format version \(formatVersion ?? 0); this version of the package reads up to "
                + "\(supportedFormatVersion ?? 0). The file was left unchanged."
        case .storeLocked:
            return "Another process holds the lock on the store at \(path); gave up waiting for it."
        case .containerClosed:
            return
                "The model container over \(reason) was closed; open a new one to go on. Nothing was read or written."
        case .storeUnusableUntilReopened:
            return "The store at \(path) must be reopened before it is used again: \(reason)."
        case .historyDeletionUnsupported:
            return "Store '\(store)' cannot delete that history: \(reason). Nothing was deleted."
        case .incompatibleSchema:
            let place = [entity, attribute].compactMap { $0 }.joined(separator: ".")
            return
                "Store '\(store)' cannot open under this schema without a migration plan: \(place): \(reason). "
                + "Nothing was written."
        case .invalidRelationship:
            let model = identifier.map { " (model \($0))" } ?? ""
            return "Relationship \(entity ?? "?").\(attribute ?? "?")\(model): \(reason). Nothing was saved."
        case .deleteDenied:
            return
                "Cannot delete \(identifier.map { "\($0)" } ?? "?"): its relationship '\(attribute ?? "?")' "
                + "has the .deny delete rule and still holds \(changeCount ?? 0) model(s). Nothing was saved."
        case .mergeConflict:
            let others = (changeCount ?? 1) > 1 ? " (and \((changeCount ?? 1) - 1) more model(s))" : ""
            return
                "Merge conflict in store '\(store)': \(identifier.map { "\($0)" } ?? "?")\(others) changed "
                + "'\(attribute ?? "?")' since this context read it. Nothing was saved; fetch the model again and "
                + "reapply the change, or save with the mergeByPropertyObjectTrump policy."
        case .schemaChanged:
            return
                "Store '\(store)' was migrated by another process: \(reason). Reopen it with the new schema."
        case .invalidMigrationPlan:
            return "Invalid migration plan: \(reason)"
        case .migrationFailed:
            return
                "Migrating store '\(store)' failed: \(reason). The store stays at the last version it completed."
        case .preferInMemoryFilter:
            return
                "Store '\(store)' declined the fetch's predicate (preferInMemoryFilter); a model context "
                + "evaluates it in Swift instead."
        case .preferInMemorySort:
            return
                "Store '\(store)' declined the fetch's sort (preferInMemorySort); a model context sorts in Swift "
                + "instead."
        case .invalidPredicate:
            return "Store '\(store)' cannot evaluate a predicate on \(entity ?? "?"): \(reason)"
        case .unsupportedFeature:
            return "Store '\(store)' does not support this: \(reason)"
        case .unknownDataStoreSchema:
            return
                "Store '\(store)' records a schema this app does not know: \(reason). Nothing was written; add the "
                + "version to the migration plan, or open the store with the app that wrote it."
        case .undoConflict:
            return
                "Cannot undo or redo in store '\(store)': \(identifier.map { "\($0)" } ?? "?") changed "
                + "'\(attribute ?? "?")' since (\(reason)). Nothing was written; the other author's value stays."
        case .undoUnavailable:
            return
                "Cannot undo or redo\(self.store.map { " in store '\($0)'" } ?? ""): \(reason). Nothing was written."
        default:
            var details = [code.name]
            if let store = self.store { details.append("store '\(store)'") }
            if let path = self.path { details.append("at \(path)") }
            if let reason = self.reason { details.append(reason) }
            return details.joined(separator: ": ")
        }
    }
}
