#if PostgreSQL
    @_spi(DataStoreInternals) import DataStoreCore
    import Foundation
    import DataStoreKit
    import Synchronization

    /// One save as one SQL transaction, in two round trips:
    ///
    /// 1. one pipeline that begins the transaction, locks the store's row (`SELECT … FOR UPDATE`), and reads the
    ///    rows the request names and the holders of its unique values;
    /// 2. planning in Swift (``SavePlanner``; a cascade may read a few more rows), then one pipeline that writes
    ///    the models, their unique values and the history row, advances the store's position, trims history
    ///    past the retention limit, queues the `NOTIFY` and commits (the `NOTIFY` is delivered then).
    ///
    /// Any failure rolls the transaction back; nothing of the save is visible.
    struct SaveTransaction {
        let store: PostgresDataStore
        let connection: PostgresConnection

        /// Begins the transaction, saves, and commits.
        func commit(_ request: DataStoreSaveChangesRequest) throws -> DataStoreSaveChangesResult<
            PostgresHistoryToken
        > {
            do {
                let (state, source) = try lockAndRead(request, begin: true)
                // `COMMIT` ends the write pipeline, unless a test holds the transaction open before it.
                let beforeCommit = store.beforeCommit
                let (result, written) = try write(
                    request, state: state, source: source, commit: beforeCommit == nil)
                if let beforeCommit {
                    beforeCommit()
                    try connection.execute("COMMIT")
                }
                if let written {
                    store.rememberHistory([written], after: state.latestSequence, epoch: state.epoch)
                }
                return result
            } catch {
                if !connection.isBroken { _ = try? connection.execute("ROLLBACK") }
                throw error
            }
        }

        /// Saves inside a transaction the caller began and will commit (a migration's changes).
        func run(_ request: DataStoreSaveChangesRequest) throws -> DataStoreSaveChangesResult<
            PostgresHistoryToken
        > {
            let (state, source) = try lockAndRead(request, begin: false)
            return try write(request, state: state, source: source, commit: false).result
        }

        /// Round trip 1: (begin,) lock the store's row, read what the plan needs.
        private func lockAndRead(_ request: DataStoreSaveChangesRequest, begin: Bool) throws -> (
            PostgresDataStore.State, PostgresRowSource
        ) {
            let schema = store.enforced.withLock { $0.schema }
            let source = PostgresRowSource(
                connection: connection, tables: store.tables, store: store.identifier,
                failure: store.failure("save"))
            let identifiers = (request.inserted + request.updated + request.deleted).map(
                \.persistentIdentifier)
            let keys = (request.inserted + request.updated).flatMap {
                UniqueValueKey.keys(of: $0, schema: schema)
            }
            let rowReads = source.rowsStatements(identifiers)
            let holderReads = source.holdersStatements(keys)
            var statements = [store.stateStatement(lock: true)] + rowReads + holderReads
            if begin { statements.insert(SQLStatement("BEGIN ISOLATION LEVEL READ COMMITTED"), at: 0) }
            let results: [PostgresRows]
            do {
                results = Array(
                    try connection.pipeline(statements).suffix(1 + rowReads.count + holderReads.count))
            } catch {
                throw store.failure("save")(error)
            }
            let state = try store.state(from: results[0])
            try store.checkSchemaGeneration(state)
            try source.receiveRows(results[1..<(1 + rowReads.count)], of: identifiers)
            source.receiveHolders(results[(1 + rowReads.count)...], of: keys)
            return (state, source)
        }

        /// Round trip 2: plan, then write everything in one pipeline, ending with `COMMIT` when `commit` is
        /// set. Returns the transaction written too, for the instance's history cache (`nil` when the cache
        /// is off or nothing changed).
        private func write(
            _ request: DataStoreSaveChangesRequest, state: PostgresDataStore.State, source: PostgresRowSource,
            commit: Bool
        ) throws -> (
            result: DataStoreSaveChangesResult<PostgresHistoryToken>, written: PostgresHistoryTransaction?
        ) {
            let schema = store.enforced.withLock { $0.schema }
            let plan = try SavePlanner.plan(
                request, over: source, storeIdentifier: store.identifier, schema: schema)
            guard !plan.changes.isEmpty else {
                // What the store holds may differ from what was sent although nothing changed (an edit of a list
                // another saver made already): the context takes it.
                let result = DataStoreSaveChangesResult<PostgresHistoryToken>(
                    storeIdentifier: store.identifier, remappedIdentifiers: plan.remappedIdentifiers,
                    token: nil, deleteRuleChanges: plan.deleteRuleChanges)
                // Nothing to write: end the transaction that only read.
                if commit {
                    do {
                        try connection.execute("COMMIT")
                    } catch {
                        throw store.failure("save")(error)
                    }
                }
                return (result, nil)
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
            let tables = store.tables
            // The stored rows this save replaces or deletes, all read already: their unique values are released.
            var originals: [DataStoreSnapshot] = []
            for change in plan.changes where change.kind != .insert {
                if let original = try source.row(for: change.identifier) { originals.append(original) }
            }
            var statements = RowWriter(tables: tables, store: store.identifier, schema: schema)
                .statements(upserting: upserts, deleting: deletes, replacing: originals)

            let sequence = state.latestSequence + 1
            // Timestamps never decrease along history, so a timestamp bound can seek.
            let timestamp = max(Date().timeIntervalSinceReferenceDate, state.lastTimestamp)
            var changes = JSONWriter()
            PlannedChangeCodec.write(plan.changes, into: &changes)
            let editing = request.editingState
            statements.append(
                SQLStatement(
                    """
                    INSERT INTO \(tables.history)
                        (store, sequence, timestamp, first_change, author, bundle_identifier, process_identifier, changes)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                    """,
                    [
                        store.identifier, String(sequence), "\(timestamp)",
                        String(state.nextChangeIdentifier),
                        editing.author, editing.bundleIdentifier, editing.processIdentifier,
                        String(decoding: changes.bytes, as: UTF8.self),
                    ], reusable: true))
            var oldestValid = state.oldestValidSequence
            if let limit = store.configuration.maximumHistoryCount, sequence > Int64(limit) {
                let cutoff = sequence - Int64(limit)
                statements.append(
                    SQLStatement(
                        "DELETE FROM \(tables.history) WHERE store = $1 AND sequence <= $2",
                        [store.identifier, String(cutoff)], reusable: true))
                oldestValid = max(oldestValid, cutoff)
            }
            statements.append(
                SQLStatement(
                    """
                    UPDATE \(tables.stores) SET latest_sequence = $2, next_change_identifier = $3,
                        last_timestamp = $4, oldest_valid_sequence = $5 WHERE name = $1
                    """,
                    [
                        store.identifier, String(sequence),
                        String(state.nextChangeIdentifier + Int64(plan.changes.count)), "\(timestamp)",
                        String(oldestValid),
                    ], reusable: true))
            statements.append(store.notifyStatement(sequence: sequence))
            if commit { statements.append(SQLStatement("COMMIT")) }
            do {
                _ = try connection.pipeline(statements)
            } catch {
                throw store.failure("save")(error)
            }
            let token = PostgresHistoryToken(
                storeIdentifier: store.identifier, epoch: state.epoch, sequence: sequence)
            let result = DataStoreSaveChangesResult(
                storeIdentifier: store.identifier, remappedIdentifiers: plan.remappedIdentifiers,
                token: token, deleteRuleChanges: plan.deleteRuleChanges)
            guard store.configuration.recentHistoryChanges > 0 else { return (result, nil) }
            let written = PostgresHistoryTransaction(
                timestamp: Date(timeIntervalSinceReferenceDate: timestamp),
                changes: PostgresHistorySource.changes(
                    plan.changes, firstChange: state.nextChangeIdentifier, sequence: sequence),
                token: token, author: editing.author, bundleIdentifier: editing.bundleIdentifier,
                processIdentifier: editing.processIdentifier)
            return (result, written)
        }
    }
#endif
