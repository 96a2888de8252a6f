#if PostgreSQL
    import DataStoreCore
    import Foundation
    import StoreFileSupport
    import Synchronization

    /// One save, inside its SQL transaction: lock the store's row, plan against the database's rows, write the
    /// models, their unique values and the history row, advance the store's position, trim history past the
    /// retention limit, and notify readers (delivered at `COMMIT`).
    struct SaveTransaction {
        let store: PostgresDataStore
        let connection: PostgresConnection

        func run(_ request: DataStoreSaveChangesRequest) throws -> DataStoreSaveChangesResult<
            PostgresHistoryToken
        > {
            let state = try store.lockState(connection)
            try store.checkSchemaGeneration(state)
            let schema = store.enforced.withLock { $0.schema }
            let source = PostgresRowSource(
                connection: connection, tables: store.tables, store: store.identifier,
                failure: store.failure("save"))
            try source.prefetch(
                (request.inserted + request.updated + request.deleted).map(\.persistentIdentifier))
            let plan = try SavePlanner.plan(
                request, over: source, storeIdentifier: store.identifier, schema: schema)
            guard !plan.changes.isEmpty else {
                return DataStoreSaveChangesResult(
                    storeIdentifier: store.identifier, remappedIdentifiers: plan.remappedIdentifiers,
                    token: nil)
            }
            var upserts: [DataStoreSnapshot] = []
            var deletes: [PersistentIdentifier] = []
            for change in plan.changes {
                switch change.kind {
                case .insert:
                    upserts.append(
                        DataStoreSnapshot(persistentIdentifier: change.identifier, values: change.values))
                case .update:
                    var merged =
                        try source.row(for: change.identifier)
                        ?? DataStoreSnapshot(persistentIdentifier: change.identifier, values: [:])
                    merged.values.merge(change.values) { _, new in new }
                    upserts.append(merged)
                case .delete:
                    deletes.append(change.identifier)
                }
            }
            let writer = RowWriter(
                connection: connection, tables: store.tables, store: store.identifier,
                schema: schema)
            try writer.replaceUniqueValues(of: plan.changes.map(\.identifier), with: upserts)
            try writer.delete(deletes)
            try writer.upsert(upserts)

            let sequence = state.latestSequence + 1
            // Timestamps never decrease along history, so a timestamp bound can seek.
            let timestamp = max(Date().timeIntervalSinceReferenceDate, state.lastTimestamp)
            var changes = JSONWriter()
            PlannedChangeCodec.write(plan.changes, into: &changes)
            let editing = request.editingState
            try connection.execute(
                """
                INSERT INTO \(store.tables.history)
                    (store, sequence, timestamp, first_change, author, bundle_identifier, process_identifier, changes)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                """,
                [
                    store.identifier, String(sequence), "\(timestamp)", String(state.nextChangeIdentifier),
                    editing.author, editing.bundleIdentifier, editing.processIdentifier,
                    String(decoding: changes.bytes, as: UTF8.self),
                ])
            var oldestValid = state.oldestValidSequence
            if let limit = store.configuration.maximumHistoryCount, sequence > Int64(limit) {
                let cutoff = sequence - Int64(limit)
                try connection.execute(
                    "DELETE FROM \(store.tables.history) WHERE store = $1 AND sequence <= $2",
                    [store.identifier, String(cutoff)])
                oldestValid = max(oldestValid, cutoff)
            }
            try connection.execute(
                """
                UPDATE \(store.tables.stores) SET latest_sequence = $2, next_change_identifier = $3,
                    last_timestamp = $4, oldest_valid_sequence = $5 WHERE name = $1
                """,
                [
                    store.identifier, String(sequence),
                    String(state.nextChangeIdentifier + Int64(plan.changes.count)), "\(timestamp)",
                    String(oldestValid),
                ])
            try store.notify(connection, sequence: sequence)
            store.beforeCommit?()
            return DataStoreSaveChangesResult(
                storeIdentifier: store.identifier, remappedIdentifiers: plan.remappedIdentifiers,
                token: PostgresHistoryToken(
                    storeIdentifier: store.identifier, epoch: state.epoch, sequence: sequence),
                deleteRuleChanges: plan.deleteRuleChanges)
        }
    }
#endif
