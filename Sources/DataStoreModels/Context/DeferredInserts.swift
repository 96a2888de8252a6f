import DataStoreCore

/// The new models `insert` has not registered yet, in insert order (see `ModelContext+DeferredInserts.swift`).
///
/// Kept in runs of one model type, each model as its own type: inserts come in runs of one type, and a run
/// reads its models' values with the type's readers looked up once. A value of this type is a list: a copy
/// does not change when the original gains inserts (a run shared with a copy, or being read, is copied before
/// it grows).
struct DeferredInserts {
    private(set) var runs: [DeferredInsertRun] = []
    /// How many inserts the runs hold.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Adds `model`, which `insert` assigned `id`, at the end.
    mutating func append<Model: PersistentModel>(
        _ model: consuming Model, as id: PersistentIdentifier, isClass: Bool
    ) {
        count += 1
        if let last = runs.indices.last, runs[last].modelType == ObjectIdentifier(Model.self) {
            if !isKnownUniquelyReferenced(&runs[last]) || runs[last].isBeingRead {
                runs[last] = runs[last].copy()
            }
            unsafeDowncast(runs[last], to: TypedDeferredInsertRun<Model>.self).append(model, as: id)
        } else {
            runs.append(TypedDeferredInsertRun(model, as: id, isClass: isClass))
        }
    }

    /// Every insert's identifier, in insert order.
    var identifiers: [PersistentIdentifier] { runs.flatMap(\.identifiers) }

    /// Calls `body` with each insert in insert order: its identifier, its model (boxed) and whether the model is
    /// a class instance; `classModelsOnly` skips struct models without boxing them. `body` also gets the
    /// insert's position in the list.
    func forEachInsert(
        classModelsOnly: Bool = false,
        _ body: (_ position: Int, _ id: PersistentIdentifier, _ model: any PersistentModel) -> Void
    ) {
        var position = 0
        for run in runs {
            let identifiers = run.identifiers
            defer { position += identifiers.count }
            if classModelsOnly, !run.isClass { continue }
            for index in identifiers.indices {
                body(position + index, identifiers[index], run.model(at: index))
            }
        }
    }

    /// ``forEachInsert(classModelsOnly:_:)`` over the class models, each moved out of the list rather than
    /// copied, which empties their runs: how the models of a save are registered. A copy retained each model,
    /// made long before and out of the cache by then in a save of thousands, and the list's end released it
    /// again. A run shared with another copy of the list is read as ``forEachInsert(classModelsOnly:_:)`` reads
    /// it, and kept.
    mutating func takeEachClassModel(
        _ body: (_ position: Int, _ id: PersistentIdentifier, _ model: consuming any PersistentModel) -> Void
    ) {
        var position = 0
        for runIndex in runs.indices {
            let count = runs[runIndex].identifiers.count
            defer { position += count }
            guard runs[runIndex].isClass else { continue }
            let owned = isKnownUniquelyReferenced(&runs[runIndex]) && !runs[runIndex].isBeingRead
            let run = runs[runIndex]
            let identifiers = run.identifiers
            for index in identifiers.indices {
                body(
                    position + index, identifiers[index],
                    owned ? run.takeModel(at: index) : run.model(at: index))
            }
            if owned { run.markTaken() }
        }
    }
}
