public import DataStoreCore
@_spi(DataStoreInternals) import DataStoreKit
import Foundation

extension TimeSeriesDataStore: SchemaMigrating {
    /// The schema `index.json` records; `nil` for a store written before schemas were recorded.
    public func recordedSchema() throws -> Schema? {
        try access.read(
            isCurrent: isCurrent, refresh: { try refresh(&$0, repair: false) },
            { $0.index.schema })
    }

    /// Records `schema` and the upgrade to it in `index.json`, replaced atomically: samples are never rewritten,
    /// so the upgrade is applied to the samples of earlier commits whenever they are read. An open commit
    /// window is committed first, under the old schema.
    ///
    /// - Throws: ``DataStoreError/invalidSave(store:reason:)`` for a request with changes (a time-series store
    ///   only inserts, so a custom stage has nothing to change), and the errors of ``SchemaUpgrade``.
    @discardableResult
    public func migrate(to schema: Schema, applying changes: DataStoreSaveChangesRequest?) throws
        -> TimeSeriesHistoryToken?
    {
        guard !configuration.isReadOnly else { throw DataStoreError.readOnlyStore(store: identifier) }
        if let changes, !changes.isEmpty {
            throw DataStoreError.invalidSave(
                store: identifier, reason: "a time-series store's migration takes no changes: it only inserts"
            )
        }
        let migrate = { (state: inout State) throws -> Void in
            try self.checkSchema(state)
            try self.record(schema, in: &state)
        }
        try access.write(refresh: { try refresh(&$0, repair: true) }, migrate)
        return nil
    }

    /// Brings a freshly opened store to the configuration's schema (see ``SchemaMigrating``).
    func reconcileSchema(with target: Schema) throws {
        let update = { (state: inout State) throws -> Void in
            guard let recorded = state.index.schema else {
                if !self.configuration.isReadOnly { try self.record(target, in: &state) }
                return
            }
            if recorded.storageLayout == target.storageLayout,
                target.version == nil || target.version == recorded.version
            {
                return
            }
            guard !self.configuration.isReadOnly else {
                guard recorded.storageLayout != target.storageLayout else { return }
                throw DataStoreError.incompatibleSchema(
                    store: self.identifier, entity: target.entities.first?.name ?? "?", attribute: nil,
                    reason:
                        "the store's samples are in another version of the schema, and a read-only store cannot "
                        + "migrate them; open it once for writing")
            }
            try self.record(target, in: &state)
        }
        if configuration.isReadOnly {
            try access.read(
                isCurrent: isCurrent, refresh: { try refresh(&$0, repair: false) },
                update)
        } else {
            try access.write(refresh: { try refresh(&$0, repair: true) }, update)
        }
    }

    /// Checks the upgrade from the recorded schema to `schema` and writes the index that records both.
    private func record(_ schema: Schema, in state: inout State) throws {
        if let pending = state.pending {
            _ = try commit(pending.batch, editingState: pending.editingState, in: &state)
            state.pending = nil
        }
        var index = state.index
        if let recorded = index.schema {
            let upgrade = try SchemaUpgrade.between(
                stored: recorded, target: schema, store: identifier,
                rows: { entity in try samples(of: entity, in: &state) })
            if !upgrade.isEmpty {
                index.migrations =
                    (index.migrations ?? [])
                    + [.init(throughSequence: state.latestSequence, upgrade: upgrade)]
            }
        }
        index.schema = schema
        index.lastSequence = state.latestSequence
        index.nextChange = state.nextChange
        index.lastCommit = state.lastCommit
        try writeIndex(index, in: &state)
        state.enforced = schema
    }

    /// Every retained sample of one entity, as the current schema reads it.
    private func samples(of entity: String, in state: inout State) throws -> [DataStoreSnapshot] {
        try commits(of: segments(in: state) { _, _, _, _ in true }, in: &state).flatMap { commit in
            commit.samples.filter { $0.entity == entity }.map { sample in
                DataStoreSnapshot(
                    persistentIdentifier: PersistentIdentifier(
                        storeIdentifier: identifier, entityName: entity, primaryKey: sample.key),
                    values: sample.values)
            }
        }
    }
}
