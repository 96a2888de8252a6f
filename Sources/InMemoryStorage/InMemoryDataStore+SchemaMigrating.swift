@_spi(DataStoreInternals) public import DataStoreCore
import DataStoreKit
import Synchronization

extension InMemoryDataStore: SchemaMigrating {
    /// The schema the store holds its rows in (empty when it was opened without one).
    public func recordedSchema() throws -> Schema? {
        schema
    }

    /// Applies `changes` and the upgrade to `schema` under one lock: other callers see the store before or
    /// after, never between.
    @discardableResult
    public func migrate(to schema: Schema, applying changes: DataStoreSaveChangesRequest?) throws
        -> InMemoryHistoryToken?
    {
        try state.withLock { state throws(DataStoreError) in
            let stored = state.table.schema ?? Schema(entities: [])
            do {
                let migration = try state.table.migration(from: stored, to: schema, applying: changes)
                var token: InMemoryHistoryToken?
                if let plan = migration.plan, let changes {
                    token = commit(plan, editingState: changes.editingState, in: &state)
                }
                state.table = migration.table
                return token
            } catch let error as DataStoreError {
                throw error
            } catch {
                throw .migrationFailed(store: identifier, reason: "\(error)")
            }
        }
    }
}
