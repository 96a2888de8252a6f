public import DataStoreCore
@_spi(DataStoreInternals) import DataStoreKit
import Foundation

extension JSONFileDataStore: SchemaMigrating {
    /// The schema the journal (or snapshot) records; `nil` for a store written before schemas were recorded.
    public func recordedSchema() throws -> Schema? {
        try access.read(
            isCurrent: isCurrent, refresh: { try refresh(&$0, repairTornTail: false) },
            { $0.replayed.recorded })
    }

    /// Appends one `schema` record holding the new schema, the upgrade and the transaction of `changes`, and
    /// fsyncs it whatever the configured durability: one record, so after a crash the store is at the old
    /// schema without the changes or at the new one with them. Other processes' instances opened under the old
    /// schema throw `schemaChanged` from then on.
    @discardableResult
    public func migrate(to schema: Schema, applying changes: DataStoreSaveChangesRequest?) throws
        -> JSONFileHistoryToken?
    {
        guard !configuration.isReadOnly else { throw DataStoreError.readOnlyStore(store: identifier) }
        return try access.write(
            refresh: { try refresh(&$0, repairTornTail: true) },
            prepare: { state -> (JournalRecord.SchemaRecord, Int64) in
                try checkSchema(state)
                let replayed = state.replayed
                let stored = replayed.recorded ?? replayed.effectiveSchema ?? Schema(entities: [])
                let migration = try replayed.table.migration(from: stored, to: schema, applying: changes)
                var transaction: JournalRecord.TransactionRecord?
                if let plan = migration.plan, let changes {
                    transaction = JournalRecord.TransactionRecord(
                        sequence: replayed.latestSequence + 1, timestamp: max(Date(), replayed.lastTimestamp),
                        author: changes.editingState.author, bundle: changes.editingState.bundleIdentifier,
                        process: changes.editingState.processIdentifier,
                        firstChange: replayed.nextChangeIdentifier,
                        changes: plan.changes)
                }
                let record = JournalRecord.SchemaRecord(
                    generation: replayed.schemaGeneration + 1, schema: schema, upgrade: migration.upgrade,
                    transaction: transaction)
                return (record, state.journalEnd)
            },
            perform: { prepared -> Int64 in
                try JournalIO.append(.schema(prepared.0), files: files, at: prepared.1, synchronize: true)
            },
            finish: { state, prepared, written in
                let record = prepared.0
                try state.replayed.apply(.schema(record), offset: prepared.1, path: files.journal)
                state.replayed.enforced = schema
                state.journalEnd += written
                state.statistics.journalBytesWritten += written
                return record.transaction.map {
                    JSONFileHistoryToken(
                        storeIdentifier: identifier, epoch: state.replayed.epoch, sequence: $0.sequence)
                }
            })
    }

    /// Brings a freshly loaded store to the configuration's schema, holding the exclusive lock: nothing when
    /// they agree; otherwise the lightweight upgrade, checked and appended as a `schema` record (a store written
    /// before schemas were recorded just records the configuration's). A read-only open writes nothing and
    /// throws for a difference of layout.
    static func reconcileSchema(
        _ loaded: inout JournalIO.Loaded, files: StoreDirectory, configuration: JSONFileStoreConfiguration
    ) throws {
        guard let target = configuration.schema else { return }
        let state = loaded.state
        let stored = state.recorded
        if let stored, stored.storageLayout == target.storageLayout,
            target.version == nil || target.version == stored.version
        {
            return
        }
        // Only the checks that need the data read rows; the upgrade itself is applied once, by the record.
        let upgrade =
            try stored.map { stored in
                try SchemaUpgrade.between(
                    stored: stored, target: target, store: configuration.name,
                    rows: { Array(state.table.rows(of: $0)) })
            } ?? SchemaUpgrade()
        guard !configuration.isReadOnly else {
            guard let stored, stored.storageLayout != target.storageLayout else { return }
            let entity =
                target.entities.first { stored.entity(named: $0.name)?.storageLayout != $0.storageLayout }?
                .name
                ?? stored.entities.first?.name ?? "?"
            throw DataStoreError.incompatibleSchema(
                store: configuration.name, entity: entity, attribute: nil,
                reason:
                    "the store's rows are in another version of the schema, and a read-only store cannot migrate "
                    + "them; open it once for writing")
        }
        let record = JournalRecord.SchemaRecord(
            generation: state.schemaGeneration + 1, schema: target, upgrade: upgrade,
            transaction: nil)
        let written = try JournalIO.append(.schema(record), files: files, at: loaded.end, synchronize: true)
        try loaded.state.apply(.schema(record), offset: loaded.end, path: files.journal)
        loaded.end += written
    }
}
