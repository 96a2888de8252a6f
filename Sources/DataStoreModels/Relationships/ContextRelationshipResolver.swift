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
    /// A context for reads after the original context is gone, and the resolver of the models loaded into it.
    /// The models hold that resolver, which holds the context weakly, as every context's models do; if they
    /// held this one, which holds the context, neither would ever be freed.
    private var fallback: (context: ModelContext, loader: ContextRelationshipResolver)?
    /// The values of the models materialized through this resolver, in runs of one model type with the type's
    /// relationships (attribute name, destination entity): gathering the identifiers of one entity passes over
    /// a run whose type has no relationship to it without looking at its models.
    private var noted: [NotedRun] = []
    /// How many models `noted` holds, across its runs.
    private var notedCount = 0
    /// For each destination entity, how many of the noted models have been gathered for it.
    private var gathered: [String: Int] = [:]
    /// The entity name of the last model type resolved: asked for on every read.
    private var lastResolved: (type: ObjectIdentifier, entity: String)?
    /// The last model type whose entity had every noted identifier gathered, and how many models were noted
    /// then: while nothing more is noted, its to-one reads need no gathering (see ``resolveOne(_:as:)``).
    private var gatheredType: (type: ObjectIdentifier, notedCount: Int)?
    /// The relationships of the last model type noted.
    private var relationshipsOfNotedType: (type: ObjectIdentifier, list: [(String, String)])?
    /// Whether ``loadedIdentifiers`` lists what this resolver loads.
    private let listsLoads: Bool
    /// The identifiers of the models this resolver loaded into its context, when it was made to list them:
    /// `enumerate` lets them go with the batch that loaded them.
    private(set) var loadedIdentifiers: [PersistentIdentifier] = []

    /// The tracking number of the change log of the context this resolver loads into (`0` for an orphan's):
    /// the relationships it loads report there the new models they let go of.
    let changeLogNumber: Int

    /// A resolver loading into `context`; with `listingLoads`, it lists what it loads in
    /// ``loadedIdentifiers``.
    init(context: ModelContext, listingLoads: Bool = false) {
        self.context = context
        self.container = context.container
        self.listsLoads = listingLoads
        changeLogNumber = context.changeLog.trackingNumber
    }

    /// A resolver for the models of a context that is gone: every read goes to a context of its own.
    init(orphanedFrom container: ModelContainer) {
        self.container = container
        self.listsLoads = false
        changeLogNumber = 0
    }

    /// Consecutive noted models of one type.
    private struct NotedRun {
        let type: ObjectIdentifier
        /// The type's relationships: attribute name, destination entity.
        let relationships: [(String, String)]
        /// How many models the runs before this one hold.
        let start: Int
        var values: [[String: SnapshotValue]]
    }

    /// Notes a snapshot of `Model` for the next batch load of what its relationships hold.
    func note<Model: PersistentModel>(_ snapshot: DataStoreSnapshot, of _: Model.Type) {
        let relationships = relationships(of: Model.self)
        guard !relationships.isEmpty else { return }
        let type = ObjectIdentifier(Model.self)
        if noted.isEmpty || noted[noted.count - 1].type != type {
            noted.append(NotedRun(type: type, relationships: relationships, start: notedCount, values: []))
        }
        noted[noted.count - 1].values.append(snapshot.values)
        notedCount += 1
    }

    /// The identifiers of `entity` that models noted since the last call for it refer to.
    private func gather(_ entity: String) -> [PersistentIdentifier] {
        let start = gathered[entity] ?? 0
        guard start < notedCount else { return [] }
        gathered[entity] = notedCount
        var identifiers: [PersistentIdentifier] = []
        // The runs that end after `start`, newest last.
        var first = noted.count
        while first > 0, noted[first - 1].start + noted[first - 1].values.count > start { first -= 1 }
        for run in noted[first...] {
            let names = run.relationships.compactMap { $0.1 == entity ? $0.0 : nil }
            guard !names.isEmpty else { continue }
            for values in run.values[max(0, start - run.start)...] {
                for name in names {
                    // Read in place: `relatedIdentifiers` makes an array for every to-one value.
                    switch values[name] {
                    case .identifier(let id)?:
                        identifiers.append(id)
                    case .array(let items)?:
                        for case .identifier(let id) in items { identifiers.append(id) }
                    default:
                        continue
                    }
                }
            }
        }
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
        let (context, loader) = liveContext()
        let entity: String
        if let last = lastResolved, last.type == ObjectIdentifier(Model.self) {
            entity = last.entity
        } else {
            entity = Model.entityName
            lastResolved = (ObjectIdentifier(Model.self), entity)
        }
        if gathered[entity] ?? 0 == notedCount,
            let tracked = context.trackedModels(identifiers, as: Model.self)
        {
            gatheredType = (ObjectIdentifier(Model.self), notedCount)
            return tracked  // Everything loaded already: the common case after the first read of a fetch.
        }
        let wanted = gather(entity) + identifiers
        var missing = Set<PersistentIdentifier>(minimumCapacity: wanted.count)
        for id in wanted {
            // A model this context once inserted keeps its alias after it is deleted and forgotten; if it is
            // stored again (an undone delete), it must be loaded, not looked up.
            let resolved = context.resolve(id) ?? id
            if !context.registry.contains(resolved) { missing.insert(resolved) }
        }
        if !missing.isEmpty {
            do {
                try context.loadModels(Model.self, missing, resolver: loader)
                if listsLoads, loader === self { loadedIdentifiers.append(contentsOf: missing) }
            } catch {
                // The read answers as empty (a getter cannot throw), so nothing may be saved on top of it: the
                // context refuses its next save with this error until it is rolled back.
                context.relationshipLoadFailure = context.relationshipLoadFailure ?? error
                return nil
            }
        }
        return identifiers.compactMap { context.registeredModel(for: $0) }
    }

    /// The model of a to-one relationship: straight from the identity map when every noted identifier of its
    /// entity was loaded already (the common case after the first read of a fetch), otherwise as
    /// ``resolve(_:as:)`` loads it.
    func resolveOne<Model: PersistentModel & AnyObject>(_ identifier: PersistentIdentifier, as _: Model.Type)
        -> Model??
    {
        if let complete = gatheredType, complete.type == ObjectIdentifier(Model.self),
            complete.notedCount == notedCount
        {
            if let model = liveContext().context.registry.registeredInstance(identifier, as: Model.self) {
                return model
            }
        }
        return resolve([identifier], as: Model.self).map { $0.first }
    }

    /// Loads every noted identifier of `Model`'s entity now (prefetching).
    func prefetch<Model: PersistentModel & AnyObject>(_: Model.Type) {
        _ = resolve([], as: Model.self)
    }

    /// The context to load into, and the resolver the models it loads get: this one for the original context,
    /// the fallback's own once the original is gone.
    private func liveContext() -> (context: ModelContext, loader: ContextRelationshipResolver) {
        if let context { return (context, self) }
        if let fallback { return fallback }
        let context = ModelContext(container)
        let made = (context, ContextRelationshipResolver(context: context))
        fallback = made
        return made
    }
}
