import DataStoreCore

/// The model types of a container by entity name, for turning store changes into typed views.
struct ModelTypeRegistry: @unchecked Sendable {
    // `@unchecked`: metatypes are immutable; the dictionary is never mutated after init.
    let types: [String: any PersistentModel.Type]

    init(_ types: [any PersistentModel.Type]) {
        var byName: [String: any PersistentModel.Type] = [:]
        for type in types {
            byName[type.entityName] = type
        }
        self.types = byName
    }

    func typedChange(_ change: some HistoryChange) -> ModelHistoryChange {
        guard let type = types[change.changedPersistentIdentifier.entityName] else {
            return .untyped(change)
        }
        return ModelHistoryChange.typed(change, as: type)
    }
}
