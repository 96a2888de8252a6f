import Foundation
import Synchronization

/// Makes the `@Relationship` storage at an address (a fresh model's, which no context tracks) a fault over a
/// persisted value (`null`, an identifier or a list of them), loaded through the resolver on first read.
@usableFromInline
typealias FreshFaultWriter = (UnsafeMutableRawPointer, SnapshotValue, (any RelatedModelResolving)?) -> Void

/// What is done to a `@Relationship`'s storage at its address, made where the relationship is declared (see
/// `ModelAttribute.relationship(_:_:deleteRule:inverse:options:originalName:)`), so that it is specialised for its
/// type.
@usableFromInline
struct RelationshipStorageWriters {
    /// Makes the storage a fault (a fresh model's, which no context tracks).
    let writeFault: FreshFaultWriter
    /// Makes a loaded relationship a fault over the identifiers it holds; leaves a fault as it is.
    let unload: (UnsafeMutableRawPointer, (any RelatedModelResolving)?) -> Void
    /// Makes the storage a fault over a persisted value, unless it holds loaded models with those identifiers
    /// already (which it keeps): a refresh of a tracked model.
    let refreshFault: FreshFaultWriter
    /// The persisted value of the storage (`null`, an identifier or a list of them), loading nothing.
    let snapshotValue: (UnsafeRawPointer) -> SnapshotValue
    /// Edits the list a loaded relationship holds where it lies; `false`, changing nothing, for a fault or a
    /// model of another type.
    let editList: (UnsafeMutableRawPointer, RelationshipListEdit) -> Bool

    @usableFromInline
    init(
        writeFault: @escaping FreshFaultWriter,
        unload: @escaping (UnsafeMutableRawPointer, (any RelatedModelResolving)?) -> Void,
        refreshFault: @escaping FreshFaultWriter,
        snapshotValue: @escaping (UnsafeRawPointer) -> SnapshotValue,
        editList: @escaping (UnsafeMutableRawPointer, RelationshipListEdit) -> Bool
    ) {
        self.writeFault = writeFault
        self.unload = unload
        self.refreshFault = refreshFault
        self.snapshotValue = snapshotValue
        self.editList = editList
    }
}

/// One edit of the list a to-many relationship holds, made by inverse maintenance.
@usableFromInline
enum RelationshipListEdit {
    /// Adds the model at the end.
    case append(AnyObject)
    /// Removes the model at this position.
    case remove(at: Int)

    /// Whether the edit applies to a list of `Destination`: an appended model must be one.
    @inlinable
    func fits<Destination: AnyObject>(_: Destination.Type) -> Bool {
        if case .append(let model) = self { return model is Destination }
        return true
    }

    /// `models` after the edit, which must ``fits(_:)`` them.
    @inlinable
    func applied<Destination: AnyObject>(to models: consuming [Destination]) -> [Destination] {
        switch self {
        case .append(let model):
            models.append(unsafeDowncast(model, to: Destination.self))
        case .remove(let index):
            models.remove(at: index)
        }
        return models
    }
}

/// What a relationship attribute adds to an attribute: where it points, its rule and inverse, and access to
/// its storage that neither loads related models nor touches inverses (for snapshots and materializing).
package struct RelationshipAccess<Model: PersistentModel>: @unchecked Sendable {
    // `@unchecked`: key paths and metatypes are immutable; the storage cache locks.

    /// The model type the relationship points to.
    package let destination: any (PersistentModel & AnyObject).Type
    /// Whether it holds a list.
    let isToMany: Bool
    /// What deleting the owner does to the related models.
    package let deleteRule: Schema.Relationship.DeleteRule
    /// The inverse relationship's key path on the destination, when declared on this side.
    let inverse: AnyKeyPath?
    /// The related identifiers, or `nil` when the property is not a `@Relationship`.
    let identifiers: (Model) -> [PersistentIdentifier]?
    /// The persisted value (`null`, an identifier, or an array of them), without loading anything.
    let snapshotValue: (Model) -> SnapshotValue
    /// The related models in memory (none for a relationship not read yet).
    package let loadedModels: (Model) -> [any PersistentModel]
    /// Sets the property, through its setter, to the related models whose identifiers `keep` accepts, so that
    /// each model it drops drops the owner from its inverse side in memory; loads a fault first, as reading the
    /// property does, and writes nothing when it keeps them all. Keeping none is how a model deleted before it
    /// was ever saved lets go of the models it was related to.
    package let keepOnly: (Model, (PersistentIdentifier) -> Bool) -> Void
    /// Makes the relationship hold nothing, writing its storage: no inverse is touched and nothing is noted as
    /// changed. What a context does to the relationships of a new model it discards (a rollback, or the context
    /// going away), which nothing stored backs: as faults over the models they held, they would read those
    /// models back from the store although none of them refers to the discarded one.
    package let detach: (Model) -> Void
    /// Makes the relationship a fault over a persisted value, loaded through the resolver on first read;
    /// keeps the loaded models when they already are those identifiers. `isFresh` says the model was just
    /// made by `init()`, so there is nothing loaded to keep.
    let setFault: (Model, SnapshotValue, (any RelatedModelResolving)?, _ isFresh: Bool) -> Void
    /// Whether `setFault` writes a fresh model's storage in place, at its offset (for tests).
    let writesFreshFaultsInPlace: () -> Bool
    /// The offset of the `@Relationship` storage in an instance, when it can be trusted, and what makes a
    /// loaded relationship at that address a fault (see ``unload``), without going through a key path.
    let inPlaceUnloader:
        () -> (offset: Int, unload: (UnsafeMutableRawPointer, (any RelatedModelResolving)?) -> Void)?
    /// Adds `model` to the end of the list this to-many relationship holds (unless it holds it already), or
    /// removes every occurrence of it: what inverse maintenance does to the other side of an edit. Loads a
    /// fault first, as reading the property does; edits the list where it lies, so that the edit does not copy
    /// the list (adding a thousand items to a trip from the items' side copied the trip's list a thousand
    /// times); notes the change; and touches no inverse: the caller keeps the other side.
    package let editList: (Model, _ adding: Bool, _ model: AnyObject) -> Void
    /// Makes the relationship a fault over the identifiers it holds, if it is loaded, so that the model no longer
    /// holds the related models (a context that is going away breaks the reference cycles between the models it
    /// tracks this way: a loaded relationship and its loaded inverse hold each other). A later read loads them
    /// again through the resolver. Writes the storage, not the property: nothing is noted as changed.
    let unload: (Model, (any RelatedModelResolving)?) -> Void
    /// The offset of the `@Relationship` storage in an instance, when it can be trusted, and the writer that
    /// makes the storage at that address a fault: what `setFault` does to a fresh model, for a fetch to call
    /// without going through the attribute's declaration. `nil` when the storage is not found by offset.
    let freshFaultWriter: () -> (offset: Int, write: FreshFaultWriter)?

    init<Value: RelationshipValue>(
        keyPath: ReferenceWritableKeyPath<Model, Value>, deleteRule: Schema.Relationship.DeleteRule,
        inverse: AnyKeyPath?, storageWriters: RelationshipStorageWriters
    ) where Model: AnyObject {
        destination = Value.Destination.self
        isToMany = Value.isToMany
        self.deleteRule = deleteRule
        self.inverse = inverse
        let storage = StorageKeyPath<Model, Value>(keyPath)
        identifiers = { model in storage.keyPath.map { model[keyPath: $0].identifiers } }
        snapshotValue = { model in
            if let offset = storage.offset {
                // At the storage's address, with a reader specialised where the relationship is declared: a
                // save compares every tracked model whose properties cannot report their writes, reading each
                // relationship, and the generic key path read looked its types up in the runtime every time.
                let address = StoredPropertyOffset.address(of: model) + offset
                return storageWriters.snapshotValue(UnsafeRawPointer(address))
            }
            return storage.keyPath.map { model[keyPath: $0].snapshotValue } ?? .null
        }
        loadedModels = { model in storage.keyPath.map { model[keyPath: $0].loadedModels } ?? [] }
        keepOnly = { model, keep in
            let related = model[keyPath: keyPath].relatedModels
            let kept = related.filter { keep($0.persistentModelID) }
            if kept.count != related.count { model[keyPath: keyPath] = Value(relatedModels: kept) }
        }
        let isToMany = Value.isToMany
        detach = { model in
            guard let storageKeyPath = storage.keyPath else { return }
            // The wrapper as a whole, through its storage: no inverse is touched and nothing is noted.
            model[keyPath: storageKeyPath] = Relationship(
                fault: RelationshipFault(value: isToMany ? .array([]) : .null, resolver: nil))
        }
        editList = { owner, adding, model in
            guard isToMany else { return }
            // Through the property: a fault loads, as a read does.
            let positions = ModelReferences.indices(of: model, in: owner[keyPath: keyPath].relatedModels)
            // An addition of a model the list holds, or a removal of one it does not, changes nothing.
            guard adding == positions.isEmpty else { return }
            // Last first, so that each removal leaves the positions before it where they were.
            let edits =
                adding ? [RelationshipListEdit.append(model)] : positions.reversed().map { .remove(at: $0) }
            for edit in edits {
                if let offset = storage.offset,
                    storageWriters.editList(StoredPropertyOffset.address(of: owner) + offset, edit)
                {
                    continue
                }
                // A fault that reads as empty without loading (a discarded model's), or storage not found by
                // offset: the storage as a whole, as the property's setter writes it, without keeping the
                // inverse again.
                guard let storageKeyPath = storage.keyPath, edit.fits(Value.Destination.self) else { return }
                let models = edit.applied(to: owner[keyPath: keyPath].relatedModels)
                owner[keyPath: storageKeyPath].state = .loaded(Value(relatedModels: models))
            }
            ModelChangeTracking.noteChange(of: owner)
            if !adding, let model = model as? any PersistentModel {
                ModelChangeTracking.noteDropped(
                    [model], by: owner, contextLog: storage.keyPath.map { owner[keyPath: $0].contextLog } ?? 0
                )
            }
        }
        writesFreshFaultsInPlace = { storage.offset != nil }
        unload = { model, resolver in
            if let offset = storage.offset {
                // At the storage's address, as a fetch writes fresh faults: a context's deinit unloads every
                // model it tracked (a key path read would copy the related models out first).
                storageWriters.unload(StoredPropertyOffset.address(of: model) + offset, resolver)
                return
            }
            guard let keyPath = storage.keyPath else { return }
            let relationship = model[keyPath: keyPath]
            guard case .loaded = relationship.state else { return }
            model[keyPath: keyPath] = Relationship(
                fault: RelationshipFault(value: relationship.snapshotValue, resolver: resolver))
        }
        freshFaultWriter = { storage.offset.map { ($0, storageWriters.writeFault) } }
        inPlaceUnloader = { storage.offset.map { ($0, storageWriters.unload) } }
        setFault = { model, value, resolver, isFresh in
            guard let keyPath = storage.keyPath else { return }
            if let offset = storage.offset {
                // Where the storage lies, without a key path (see `StoredPropertyOffset`): a model `init()` just
                // made, which no context tracks, or a tracked one a fetch refreshes (every model it returns).
                let address = StoredPropertyOffset.address(of: model) + offset
                if isFresh {
                    storageWriters.writeFault(address, value, resolver)
                } else {
                    storageWriters.refreshFault(address, value, resolver)
                }
                return
            }
            if !isFresh, case .loaded(let loaded) = model[keyPath: keyPath].state,
                value.names(exactly: loaded.relatedModels)
            {
                return
            }
            // One assignment of the whole wrapper: writing `.state` through the key path would read it first.
            model[keyPath: keyPath] = Relationship(fault: RelationshipFault(value: value, resolver: resolver))
        }
    }

    /// The storage key path of one relationship property, found once.
    final class StorageKeyPath<Owner: PersistentModel & AnyObject, Value: RelationshipValue>:
        @unchecked Sendable
    {
        // `@unchecked`: `found` is written once, under the lock, before `isFound` is published with release
        // ordering; readers that see `isFound` with acquire ordering see it written.
        private let property: ReferenceWritableKeyPath<Owner, Value>
        private let lock = Lock(())
        private let isFound = Atomic<Bool>(false)
        private nonisolated(unsafe) var found: ReferenceWritableKeyPath<Owner, Relationship<Value>>?
        private nonisolated(unsafe) var foundOffset: Int?

        init(_ property: ReferenceWritableKeyPath<Owner, Value>) {
            self.property = property
        }

        /// The `@Relationship` storage, or `nil` when the property is a plain stored property. Read on every
        /// snapshot and materialization, so after the first call it takes no lock.
        var keyPath: ReferenceWritableKeyPath<Owner, Relationship<Value>>? {
            find()
            return found
        }

        /// The storage's offset in an instance, when it can be trusted (see `StoredPropertyOffset`).
        var offset: Int? {
            find()
            return foundOffset
        }

        private func find() {
            if isFound.load(ordering: .acquiring) { return }
            lock.withLock { _ in
                guard !isFound.load(ordering: .acquiring) else { return }
                found =
                    RelationshipStorageDiscovery.find(property, in: Owner.self)
                    as? ReferenceWritableKeyPath<Owner, Relationship<Value>>
                // Measured once for the storage, shared with the property's reads (see
                // `StorageOffsets`).
                foundOffset = found.flatMap { StorageOffsets.offset(of: $0) }
                isFound.store(true, ordering: .releasing)
            }
        }
    }
}
