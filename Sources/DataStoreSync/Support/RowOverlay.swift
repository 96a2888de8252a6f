import DataStoreCore

/// The rows of one store as a batch of changes leaves them, over the rows the store held when the batch
/// began: several transactions' changes are applied one after another, and ``request(author:)`` turns the
/// difference into one save.
///
/// Updates in that save are change sets: only the attributes that differ, each with its original value as the
/// baseline, under ``MergePolicy/error``. A save made meanwhile by the app (an attribute it changed since the
/// batch read the row) then refuses the whole batch instead of being overwritten; the engine reads again.
/// Inserts carry baselines too, of models the batch read as absent: when the app made a model holding the
/// same unique value meanwhile, the store's upsert would make the insert an update of the app's model, with
/// the batch's values over the app's; under `.error` it refuses instead.
struct RowOverlay {
    /// The rows as the store held them, `nil` for a model it did not hold.
    private(set) var original: [PersistentIdentifier: DataStoreSnapshot?] = [:]
    /// The rows after the batch, `nil` for a model the batch deleted.
    private(set) var current: [PersistentIdentifier: DataStoreSnapshot?] = [:]
    /// The identifiers in the order they were first touched, so the save lists them in a stable order.
    private var order: [PersistentIdentifier] = []
    /// The models the batch deleted, which no row it saves may still name.
    private var deleted: Set<PersistentIdentifier> = []

    /// Records what the store holds for models not seen yet.
    mutating func load(
        _ rows: [PersistentIdentifier: DataStoreSnapshot], for identifiers: [PersistentIdentifier]
    ) {
        for id in identifiers where original[id] == nil {
            original[id] = .some(rows[id])
            current[id] = .some(rows[id])
            order.append(id)
        }
    }

    /// The row after the changes applied so far; `nil` when the model is absent (or was never loaded).
    func row(_ id: PersistentIdentifier) -> DataStoreSnapshot? { current[id] ?? nil }

    /// The models the batch wrote or deleted, in the order they were first touched.
    var changedIdentifiers: [PersistentIdentifier] {
        order.filter { original[$0] != current[$0] }
    }

    /// Whether the model was loaded.
    func isLoaded(_ id: PersistentIdentifier) -> Bool { original[id] != nil }

    /// Makes the model hold `values` in the named attributes (inserting it when absent).
    mutating func write(_ id: PersistentIdentifier, _ values: [String: SnapshotValue]) {
        precondition(isLoaded(id), "load a row before writing it")
        var row = row(id) ?? DataStoreSnapshot(persistentIdentifier: id, values: [:])
        for (name, value) in values { row.values[name] = value }
        current[id] = .some(row)
        deleted.remove(id)
    }

    /// Removes the model.
    mutating func delete(_ id: PersistentIdentifier) {
        precondition(isLoaded(id), "load a row before deleting it")
        current[id] = .some(nil)
        deleted.insert(id)
    }

    /// One save that takes the store from the original rows to the current ones, under `mergePolicy`; empty
    /// when they are equal.
    ///
    /// Links to the models the batch deleted are taken off every row it saves. A delete unlinks a model
    /// through its own side, but the other side may still name it: a list the device has not pushed keeps its
    /// members while the server clears a member's side, and a save naming a deleted model fails.
    func request(author: String, mergePolicy: MergePolicy = .error) -> DataStoreSaveChangesRequest {
        var request = DataStoreSaveChangesRequest(
            editingState: EditingState(author: author), mergePolicy: mergePolicy)
        for id in order {
            let after = (current[id] ?? nil).map { deleted.isEmpty ? $0 : withoutLinksToDeleted($0) }
            switch (original[id] ?? nil, after) {
            case (nil, let after?):
                request.inserted.append(after)
                if mergePolicy == .error { request.baselines[id] = after.values.mapValues { _ in .null } }
            case (let before?, nil):
                request.deleted.append(before)
            case (let before?, let after?):
                var changed: [String: SnapshotValue] = [:]
                var baseline: [String: SnapshotValue] = [:]
                for (name, value) in after.values where before.values[name] != value {
                    changed[name] = value
                    baseline[name] = before.values[name] ?? .null
                }
                guard !changed.isEmpty else { continue }
                request.updated.append(DataStoreSnapshot(persistentIdentifier: id, values: changed))
                request.baselines[id] = baseline
            case (nil, nil):
                continue
            }
        }
        return request
    }

    /// `row` without links to the models the batch deleted.
    private func withoutLinksToDeleted(_ row: DataStoreSnapshot) -> DataStoreSnapshot {
        var row = row
        for (name, value) in row.values {
            guard let related = value.relatedIdentifiers, related.contains(where: deleted.contains) else {
                continue
            }
            if case .identifier = value {
                row.values[name] = .null
            } else {
                row.values[name] = .array(
                    related.filter { !deleted.contains($0) }.map(SnapshotValue.identifier))
            }
        }
        return row
    }
}
