import Foundation

/// Loads a context's relationships on first read: through the context's identity map, so an identifier is
/// always the same instance, and in batches, so that reading one relationship of N fetched models costs one
/// store request, not N.
///
/// A context makes one per fetch. Every identifier the fetched models' relationships hold is noted by
/// destination entity; the first read of any of them loads all the noted identifiers of that entity that the
/// context does not track yet, in one fetch, and the models loaded note theirs in turn.
final class ContextRelationshipResolver: RelatedModelResolving {
    /// Weak: models keep their resolver, and the context keeps its models.
    private weak var context: ModelContext?
    private let container: ModelContainer
    /// A context for reads after the original context is gone.
    private var fallback: ModelContext?
    /// Identifiers noted but not loaded yet, by entity name.
    private var noted: [String: Set<PersistentIdentifier>] = [:]

    init(context: ModelContext) {
        self.context = context
        self.container = context.container
    }

    /// Notes the relationship identifiers of a snapshot of `Model` for the next batch load.
    func note<Model: PersistentModel>(_ snapshot: DataStoreSnapshot, of _: Model.Type) {
        for attribute in Model.schemaAttributes {
            guard let relationship = attribute.relationship,
                let identifiers = snapshot[attribute: attribute.name].relatedIdentifiers, !identifiers.isEmpty
            else { continue }
            noted[relationship.destination.entityName, default: []].formUnion(identifiers)
        }
    }

    func resolve<Model: PersistentModel & AnyObject>(_ identifiers: [PersistentIdentifier], as _: Model.Type)
        -> [Model]?
    {
        let context = liveContext()
        var wanted = noted.removeValue(forKey: Model.entityName) ?? []
        wanted.formUnion(identifiers)
        let missing = wanted.filter { context.resolve($0) == nil }
        if !missing.isEmpty {
            do {
                try context.loadModels(Model.self, missing, resolver: self)
            } catch {
                FileHandle.standardError.write(
                    Data(
                        "DataStoreHistory: loading \(Model.entityName) relationships failed: \(error)\n".utf8)
                )
                return nil
            }
        }
        return identifiers.compactMap { context.registeredModel(for: $0) }
    }

    /// Loads every noted identifier of `Model`'s entity now (prefetching).
    func prefetch<Model: PersistentModel & AnyObject>(_: Model.Type) {
        guard let noted = noted[Model.entityName] else { return }
        _ = resolve(Array(noted), as: Model.self)
    }

    private func liveContext() -> ModelContext {
        if let context { return context }
        if let fallback { return fallback }
        let context = ModelContext(container)
        fallback = context
        return context
    }
}
