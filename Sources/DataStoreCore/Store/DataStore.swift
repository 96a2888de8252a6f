/// A store: it persists model snapshots and answers fetches. The interface backend authors implement.
///
/// The methods are synchronous and throwing, as in SwiftData. A store is shared by every context of a
/// container and may be called from many threads at once.
///
/// # Implementation requirements
///
/// - `save` is atomic: either every change in the request is committed, as one history transaction, or
///   the store is left exactly as before and the method throws a ``DataStoreError``.
/// - An update is a change set (``DataStoreSaveChangesRequest/updated``): it is merged into the stored row,
///   and attributes it leaves out keep their stored values. Under ``MergePolicy/error``, an update whose
///   ``DataStoreSaveChangesRequest/baselines`` differ from the stored values throws
///   ``DataStoreError/mergeConflict(store:identifier:attributes:conflictCount:)`` and nothing is saved.
/// - Both sides of a relationship with an inverse stay consistent with the rows the store holds: a model
///   linked to a to-one inverse leaves the list of the model that held it, a to-many edit with a baseline is
///   merged into the stored list, and delete rules follow the related models' side. A to-many list holds each
///   model once, where it first stands: one sent naming a model twice, or naming an upserted insert beside
///   the model it became, is stored naming it once. `SavePlanner` does all of this given a
///   `SnapshotRowSource`.
/// - An update or delete of a model the store does not hold throws
///   ``DataStoreError/modelNotFound(store:identifier:)``; an unknown entity throws
///   ``DataStoreError/unknownEntity(store:entity:)``.
/// - An insert whose `.unique` attribute value is already taken updates the model holding it and reports
///   the remapping in the result; an update that would duplicate a unique value throws
///   ``DataStoreError/uniqueConstraintViolation(store:entity:attribute:value:)``.
/// - `fetch` applies the descriptor's predicate, sort, offset and limit; `SnapshotQuery` does this for
///   you given the candidate snapshots.
/// - ``identifier`` equals the configuration's name and never changes while the store exists.
/// - `erase` removes all data and history and draws a new epoch, so earlier tokens stop matching.
/// - The store is safe to call from many threads at once.
public protocol DataStore<Configuration>: AnyObject, Sendable {
    /// The configuration type that opens this store.
    associatedtype Configuration: DataStoreConfiguration where Configuration.Store == Self
    /// The store's history token type.
    associatedtype Token: StoreHistoryToken

    /// Opens (or creates) the store a configuration describes.
    init(_ configuration: Configuration) throws

    /// The configuration the store was opened with.
    var configuration: Configuration { get }
    /// The store's identifier, carried by its tokens and persistent identifiers.
    var identifier: String { get }
    /// The schema the store enforces.
    var schema: Schema { get }

    /// Fetches the snapshots of one model type that match the request.
    func fetch<Model: PersistentModel>(_ request: DataStoreFetchRequest<Model>) throws -> DataStoreFetchResult

    /// Commits the request's changes as one transaction.
    func save(_ request: DataStoreSaveChangesRequest) throws -> DataStoreSaveChangesResult<Token>

    /// Deletes all data and history and starts a new epoch.
    func erase() throws
}
