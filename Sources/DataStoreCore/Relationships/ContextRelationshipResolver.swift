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
    /// Identifiers noted but not loaded yet, by destination entity name.
    private var noted: [String: [PersistentIdentifier]] = [:]
    /// The relationships of the last model type noted: (attribute name, destination entity).
    private var relationshipsOfNotedType: (type: ObjectIdentifier, list: [(String, String)])?

    init(context: ModelContext) {
        self.context = context
        self.container = context.container
    }

    /// Notes the relationship identifiers of a snapshot of `Model` for the next batch load.
    func note<Model: PersistentModel>(_ snapshot: DataStoreSnapshot, of _: Model.Type) {
        for (name, destination) in relationships(of: Model.self) {
            guard let identifiers = snapshot.values[name]?.relatedIdentifiers, !identifiers.isEmpty else {
                continue
            }
            noted[destination, default: []].append(contentsOf: identifiers)
        }
    }

    private func relationships<Model: PersistentModel>(of _: Model.Type) -> [(String, String)] {
        let type = ObjectIdentifier(Model.self)
        if let known = relationshipsOfNotedType, known.type == type { return known.list }
        let list = Model.schemaAttributes.compactMap { attribute in
            attribute.relationship.map { (attribute.name, $0.destination.entityName) }
        }
        relationshipsOfNotedType = (type, list)
        return list
    }

    func resolve<Model: PersistentModel & AnyObject>(_ identifiers: [PersistentIdentifier], as _: Model.Type)
        -> [Model]?
    {
        let context = liveContext()
        let entity = Model.entityName
        if noted[entity] == nil, let tracked = context.trackedModels(identifiers, as: Model.self) {
            return tracked  // Everything loaded already: the common case after the first read of a fetch.
        }
        var missing = Set<PersistentIdentifier>()
        for id in (noted.removeValue(forKey: entity) ?? []) + identifiers where context.resolve(id) == nil {
            missing.insert(id)
        }
        if !missing.isEmpty {
            do {
                try context.loadModels(Model.self, missing, resolver: self)
            } catch {
                FileHandle.standardError.write(
                    Data("DataStoreHistory: loading \(entity) relationships failed: \(error)\n".utf8))
                return nil
            }
        }
        return identifiers.compactMap { context.registeredModel(for: $0) }
    }

    /// Loads every noted identifier of `Model`'s entity now (prefetching).
    func prefetch<Model: PersistentModel & AnyObject>(_: Model.Type) {
        guard noted[Model.entityName] != nil else { return }
        _ = resolve([], as: Model.self)
    }

    private func liveContext() -> ModelContext {
        if let context { return context }
        if let fallback { return fallback }
        let context = ModelContext(container)
        fallback = context
        return context
    }
}
