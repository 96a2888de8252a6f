import DataStoreCore

/// Consecutive deferred inserts of one model type (see ``DeferredInserts``).
///
/// The base class names what the context does with a run without knowing its model type; each run is a
/// ``TypedDeferredInsertRun``, which keeps its models as their own type.
class DeferredInsertRun {
    /// The model type of the run's models.
    final let modelType: ObjectIdentifier
    /// Whether the models are class instances, which stay registered once saved.
    final let isClass: Bool
    /// The identifiers `insert` assigned, in insert order.
    // Unchecked: an insert appends to it; only the context that owns the run (one thread) touches it.
    @exclusivity(unchecked) final fileprivate(set) var identifiers: [PersistentIdentifier]
    /// Whether the run's values are being read, when an insert (from a getter) must not change it in place.
    final fileprivate(set) var isBeingRead = false

    fileprivate init(modelType: ObjectIdentifier, isClass: Bool, identifiers: [PersistentIdentifier]) {
        self.modelType = modelType
        self.isClass = isClass
        self.identifiers = identifiers
    }

    /// The model inserted at `position`, boxed for a registration.
    func model(at position: Int) -> any PersistentModel { fatalError("a run is a TypedDeferredInsertRun") }

    /// The model inserted at `position`, moved out of the run: every model must be taken, then
    /// ``markTaken()`` called, before anything else reads the run.
    func takeModel(at position: Int) -> any PersistentModel {
        fatalError("a run is a TypedDeferredInsertRun")
    }

    /// Records that every model was taken (``takeModel(at:)``): the run no longer holds them.
    func markTaken() { fatalError("a run is a TypedDeferredInsertRun") }

    /// The models' snapshots under their identifiers, in insert order.
    func snapshots() -> [DataStoreSnapshot] { fatalError("a run is a TypedDeferredInsertRun") }

    /// A run with the same inserts, which ``TypedDeferredInsertRun/append(_:as:)`` may change without changing
    /// this one.
    func copy() -> DeferredInsertRun { fatalError("a run is a TypedDeferredInsertRun") }
}

/// Consecutive deferred inserts of models of type `Model`, unboxed: a struct model in an existential needs a
/// heap box of its own, which most inserted models never need (a saved struct is not registered).
///
/// The models lie in a buffer of their own rather than an `Array`: code generic over the model type (this
/// module's, for the app's model types) would look the array type's metadata up on every append.
final class TypedDeferredInsertRun<Model: PersistentModel>: DeferredInsertRun {
    /// The first `identifiers.count` are initialized.
    @exclusivity(unchecked) private var models: UnsafeMutablePointer<Model>
    @exclusivity(unchecked) private var capacity: Int
    /// Whether the models were moved out (``takeModel(at:)``): the buffer holds none then.
    private var taken = false

    /// A run of one insert.
    init(_ model: consuming Model, as id: PersistentIdentifier, isClass: Bool) {
        capacity = 16
        models = .allocate(capacity: capacity)
        models.initialize(to: model)
        super.init(modelType: ObjectIdentifier(Model.self), isClass: isClass, identifiers: [id])
    }

    private init(copying run: TypedDeferredInsertRun<Model>) {
        capacity = max(run.identifiers.count, 16)
        models = .allocate(capacity: capacity)
        models.initialize(from: run.models, count: run.identifiers.count)
        super.init(
            modelType: ObjectIdentifier(Model.self), isClass: run.isClass, identifiers: run.identifiers)
    }

    deinit {
        if !taken { models.deinitialize(count: identifiers.count) }
        models.deallocate()
    }

    /// Adds an insert at the end of the run.
    func append(_ model: consuming Model, as id: PersistentIdentifier) {
        let count = identifiers.count
        if count == capacity {
            capacity *= 2
            let grown = UnsafeMutablePointer<Model>.allocate(capacity: capacity)
            grown.moveInitialize(from: models, count: count)
            models.deallocate()
            models = grown
        }
        (models + count).initialize(to: model)
        identifiers.append(id)
    }

    override func model(at position: Int) -> any PersistentModel {
        precondition(position < identifiers.count)
        return models[position]
    }

    override func takeModel(at position: Int) -> any PersistentModel {
        precondition(position < identifiers.count && !taken)
        return (models + position).move()
    }

    override func markTaken() { taken = true }

    override func snapshots() -> [DataStoreSnapshot] {
        // Reading a model's values runs its getters, which could insert: such an insert copies the run first.
        isBeingRead = true
        defer { isBeingRead = false }
        return Model.snapshots(
            of: UnsafeBufferPointer(start: models, count: identifiers.count), identifiedBy: identifiers)
    }

    override func copy() -> DeferredInsertRun { TypedDeferredInsertRun(copying: self) }
}
