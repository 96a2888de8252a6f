import DataStoreCore
import Foundation

/// Loads a context's relationships on first read: through the context's identity map, so an identifier is
/// always the same instance, and in batches, so that reading one relationship of N fetched models costs one
/// store request, not N.
///
/// A context makes one per fetch. The fetched models' values are noted as they are materialized (a cheap
/// append); the first read of a relationship to an entity gathers every noted identifier of that entity and
/// loads the ones the context does not track yet, in one fetch, and the models loaded are noted in turn.
final class ContextRelationshipResolver: RelatedModelResolving {
    /// Weak: models keep their resolver, and the context keeps its models.
    private weak var context: ModelContext?
    private let container: ModelContainer
    /// A context for reads after the original context is gone.
    private var fallback: ModelContext?
    /// The values of the models materialized through this resolver, with their type's relationships
    /// (attribute name, destination entity).
    private var noted: [(relationships: [(String, String)], values: [String: SnapshotValue])] = []
    /// For each destination entity, how much of `noted` has been gathered for it.
    private var gathered: [String: Int] = [:]
    /// The entity name of the last model type resolved: asked for on every read.
    private var lastResolved: (type: ObjectIdentifier, entity: String)?
    /// The relationships of the last model type noted.
    private var relationshipsOfNotedType: (type: ObjectIdentifier, list: [(String, String)])?

    init(context: ModelContext) {
        self.context = context
        self.container = context.container
    }

    /// Notes a snapshot of `Model` for the next batch load of what its relationships hold.
    func note<Model: PersistentModel>(_ snapshot: DataStoreSnapshot, of _: Model.Type) {
        let relationships = relationships(of: Model.self)
        guard !relationships.isEmpty else { return }
        noted.append((relationships, snapshot.values))
    }

    /// The identifiers of `entity` that models noted since the last call for it refer to.
    private func gather(_ entity: String) -> [PersistentIdentifier] {
        let start = gathered[entity] ?? 0
        guard start < noted.count else { return [] }
        var identifiers: [PersistentIdentifier] = []
        identifiers.reserveCapacity(noted.count - start)
        for entry in noted[start...] {
            for (name, destination) in entry.relationships where destination == entity {
                // Read in place: `relatedIdentifiers` makes an array for every to-one value.
                switch entry.values[name] {
                case .identifier(let id)?:
                    identifiers.append(id)
                case .array(let items)?:
                    for case .identifier(let id) in items { identifiers.append(id) }
                default:
                    continue
                }
            }
        }
        gathered[entity] = noted.count
        return identifiers
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
        let entity: String
        if let last = lastResolved, last.type == ObjectIdentifier(Model.self) {
            entity = last.entity
        } else {
            entity = Model.entityName
            lastResolved = (ObjectIdentifier(Model.self), entity)
        }
        if gathered[entity] ?? 0 == noted.count,
            let tracked = context.trackedModels(identifiers, as: Model.self)
        {
            return tracked  // Everything loaded already: the common case after the first read of a fetch.
        }
        let wanted = gather(entity) + identifiers
        var missing = Set<PersistentIdentifier>(minimumCapacity: wanted.count)
        for id in wanted where context.resolve(id) == nil {
            missing.insert(id)
        }
        if !missing.isEmpty {
            do {
                try context.loadModels(Model.self, missing, resolver: self)
            } catch {
                // The read answers as empty (a getter cannot throw), so nothing may be saved on top of it: the
                // context refuses its next save with this error until it is rolled back.
                context.relationshipLoadFailure = context.relationshipLoadFailure ?? error
                return nil
            }
        }
        return identifiers.compactMap { context.registeredModel(for: $0) }
    }

    /// Loads every noted identifier of `Model`'s entity now (prefetching).
    func prefetch<Model: PersistentModel & AnyObject>(_: Model.Type) {
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
