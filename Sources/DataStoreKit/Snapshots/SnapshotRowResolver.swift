import DataStoreCore

/// Resolves relationships from a store's own rows, for evaluating a predicate or sort that follows one
/// (`$0.trip?.name == "Paris"`) inside the store: each related row is read once per query and materialized
/// once, so following the same model from many candidates costs one lookup.
final class SnapshotRowResolver: RelatedModelResolving {
    private let rows: any SnapshotRowSource
    /// The models made so far. Their relationships hold this resolver, so the two keep each other alive until
    /// ``forgetModels()`` lets them go.
    private var models: [PersistentIdentifier: AnyObject] = [:]

    init(rows: any SnapshotRowSource) {
        self.rows = rows
    }

    func resolve<Model: PersistentModel & AnyObject>(_ identifiers: [PersistentIdentifier], as _: Model.Type)
        -> [Model]?
    {
        var result: [Model] = []
        result.reserveCapacity(identifiers.count)
        for id in identifiers {
            if let known = models[id] as? Model {
                result.append(known)
                continue
            }
            guard let row = try? rows.row(for: id) else { continue }
            guard let model = try? Model(snapshot: row, resolver: self) else { return nil }
            models[id] = model
            result.append(model)
        }
        return result
    }

    /// Lets go of the models made so far, which hold this resolver through their relationships: what the query
    /// that made it does once it has its answer, so that neither outlives it.
    func forgetModels() {
        models = [:]
    }
}
