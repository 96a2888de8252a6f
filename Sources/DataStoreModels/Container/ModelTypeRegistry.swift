import DataStoreCore

/// The model types of a container by entity name, for turning store changes into typed views.
struct ModelTypeRegistry: @unchecked Sendable {
    // `@unchecked`: metatypes are immutable; the dictionary is never mutated after init.
    let types: [String: any PersistentModel.Type]
    /// Whether some type declares a relationship: a save of a container without any checks none.
    let haveRelationships: Bool

    init(_ types: [any PersistentModel.Type]) {
        var byName: [String: any PersistentModel.Type] = [:]
        for type in types {
            byName[type.entityName] = type
        }
        self.types = byName
        func declaresRelationships<Model: PersistentModel>(_: Model.Type) -> Bool {
            ModelTypeFacts.hasRelationships(Model.self)
        }
        haveRelationships = types.contains { declaresRelationships($0) }
    }

    func typedChange(_ change: some HistoryChange) -> ModelHistoryChange {
        guard let type = types[change.changedPersistentIdentifier.entityName] else {
            return .untyped(change)
        }
        return ModelHistoryChange.typed(change, as: type)
    }
}
