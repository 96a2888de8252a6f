/// A store that records the schema its data was written with and moves it to another schema in one atomic
/// step: what migration plans (`SchemaMigrationPlan`) and lightweight migrations on opening are built on.
///
/// # Implementation requirements
///
/// - The store persists its schema (entities, attributes with value kinds and options, the version) with its
///   data, and ``recordedSchema()`` returns it; `nil` only for a store that holds no schema record (one written
///   by a version of the package that did not record schemas).
/// - Opening the store under a schema whose ``Schema/storageLayout`` differs from the recorded one computes
///   `SchemaUpgrade/between(stored:target:store:rows:)`: it throws, writing nothing, or the store applies
///   and records the upgrade before the open returns. A store opened read-only applies nothing and throws
///   ``DataStoreError/incompatibleSchema(store:entity:attribute:reason:)`` for a difference.
/// - ``migrate(to:applying:)`` plans `changes` against the current schema, applies them and the upgrade to
///   `schema` to the rows, records `schema`, and commits all of it as one unit: after a crash the store is at
///   the old schema with none of the changes, or at the new one with all of them. The changes appear in history
///   as one transaction by the request's author. Afterwards the instance enforces `schema`.
/// - An instance whose store another process migrated to a different layout throws
///   ``DataStoreError/schemaChanged(store:reason:)`` from every later call instead of misreading rows.
public protocol SchemaMigrating: DataStore {
    /// The schema the store's data was written with; `nil` when the store has no schema record.
    func recordedSchema() throws -> Schema?

    /// Moves the store to `schema`, with `changes` (planned against the current schema) in the same atomic
    /// step, and returns the token of the transaction the changes made (`nil` without changes).
    ///
    /// - Throws: ``DataStoreError/incompatibleSchema(store:entity:attribute:reason:)`` when the data after the
    ///   changes cannot take the new schema, the save errors of `changes`; then nothing was written.
    @discardableResult
    func migrate(to schema: Schema, applying changes: DataStoreSaveChangesRequest?) throws -> Token?
}
