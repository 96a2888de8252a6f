public import DataStoreCore
import DataStoreKit
import Foundation
import Synchronization

extension FilePerModelDataStore: SchemaMigrating {
    /// The schema `store.json` records.
    public func recordedSchema() throws -> Schema? {
        state.withLock { $0.metadata.schema }
    }

    /// Plans the changes and the upgrade with `SnapshotTable.migration`, then rewrites every model file, appends
    /// the changes' history line and records the schema in `store.json`, last. Like this store's saves, it is not
    /// crash-safe across files: a crash part-way leaves some model files upgraded and the old schema recorded
    /// (reopening upgrades them again, which changes nothing for the files already done). `JSONFileDataStore`
    /// shows how to make it one atomic write.
    @discardableResult
    public func migrate(to schema: Schema, applying changes: DataStoreSaveChangesRequest?) throws
        -> FilePerModelHistoryToken?
    {
        var token: FilePerModelHistoryToken?
        if let changes, !changes.isEmpty {
            token = try save(changes).token
        }
        try state.withLock { state in
            let stored = state.metadata.schema ?? state.table.schema ?? Schema(entities: [])
            let migration = try state.table.migration(from: stored, to: schema, applying: nil)
            for entity in migration.table.countsByEntity.keys {
                for row in migration.table.rows(of: entity) {
                    try AtomicFileWriter.replace(
                        modelFile(row.persistentIdentifier).path, with: JSONEncoder().encode(row))
                }
            }
            for entity in migration.upgrade.removedEntities {
                try? FileManager.default.removeItem(
                    at: root.appendingPathComponent("models").appendingPathComponent(entity))
            }
            var metadata = state.metadata
            metadata.schema = schema
            try AtomicFileWriter.replace(
                root.appendingPathComponent("store.json").path, with: JSONEncoder().encode(metadata))
            state.metadata = metadata
            state.table = migration.table
        }
        return token
    }

    /// Brings the store to the configuration's schema on opening: records it when nothing is recorded, migrates
    /// lightweight when the layout differs.
    func reconcileSchema(with target: Schema) throws {
        let recorded = try recordedSchema()
        guard
            recorded?.storageLayout != target.storageLayout
                || (target.version != nil && recorded?.version != target.version)
        else { return }
        try migrate(to: target, applying: nil)
    }
}
