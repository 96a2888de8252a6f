@_spi(DataStoreInternals) public import DataStoreCore
@_spi(DataStoreInternals) import DataStoreKit
import Foundation
import Synchronization

/// A durable store in a directory of human-readable JSON files, with history, shared safely by any number
/// of processes: the app and its widget over one store.
///
/// - **Files.** `journal.jsonl` (an append-only journal: a header, then one checksummed record per
///   committed save, then free space that durable saves write into without growing the file),
///   `snapshot.json` (the compacted state, replaced atomically), and `lock` (for `flock`, and a change count).
///   `Docs/JSONFileFormat.md` documents them byte by byte.
/// - **Boundaries.** One `save` is one transaction, written as one journal record: after a crash it is there
///   whole or not at all. One model instance is one change, recorded with its attribute-level diff.
/// - **Cost.** A save appends one record: O(size of the change), never O(size of the store).
/// - **Durability.** By default a save returns after fsync; see ``JSONFileStoreConfiguration/Durability``.
/// - **Several processes.** Writers serialise on an exclusive `flock` and first catch up on what others
///   appended, so unique upserts and updates apply to the latest state. Readers compare the lock file's
///   change count (mapped into memory: no system call) before each fetch and read only what is new.
/// - **Recovery.** An incomplete last record (a torn write) is cut back by the next writer; any other damage,
///   a complete record that fails its checksum included, makes opening
///   throw ``DataStoreError/corruptStoreFile(path:offset:reason:)`` and leaves the files untouched.
public final class JSONFileDataStore: DataStore, Sendable {
    /// The store's configuration type.
    public typealias Configuration = JSONFileStoreConfiguration
    /// The store's token type.
    public typealias Token = JSONFileHistoryToken

    struct State: Sendable {
        var replayed: ReplayedState
        /// The journal file's device and inode when last read: a change means it was replaced.
        var journalIdentity: StoreFile.Identity { journalPin.identity }
        /// That journal, held open so that its inode is not reused while this state refers to it.
        var journalPin: PinnedFile
        /// The offset just past the last whole record read.
        var journalEnd: Int64
        /// The journal header's format version (see `JournalIO.Loaded.format`).
        var journalFormat: Int
        /// Whether the journal may hold free space, and readers rely on the lock file's change count.
        var journalIsPreallocated: Bool { journalFormat >= JournalIO.preallocatedFormat }
        var statistics = JSONFileStoreStatistics()
        /// Transactions retention forgot since this instance last compacted.
        var forgottenSinceCompaction = 0
        /// After a checkpoint or trim failed (a full disk): the journal and the size it must reach before the
        /// next attempt, so that a save does not pay for a failing checkpoint every time.
        var maintenanceRetry: (journal: StoreFile.Identity, end: Int64)?
    }

    /// The configuration the store was opened with.
    public let configuration: JSONFileStoreConfiguration
    /// The store's identifier: the configuration's name.
    public let identifier: String
    /// The schema the store enforces: the configuration's, or without one the schema the files record (empty
    /// when there is none); ``migrate(to:applying:)`` changes it.
    public var schema: Schema { access.inMemory { $0.replayed.effectiveSchema } ?? Schema(entities: []) }
    let files: StoreDirectory
    let access: FileStoreAccess<State>
    /// The journal, kept open for appends until it is replaced.
    let openJournal = OpenJournal()
    /// Saves waiting for the batch being written (group commit).
    let commits = CommitQueue<DataStoreSaveChangesRequest, SaveResult>()
    /// The values of the last bulk save's journal record, for a checkpoint right after it to copy (see
    /// ``RowEncodings``); dropped when the save that wrote it returns.
    let recentEncodings = Lock<RowEncodings?>(nil)
    /// For tests: see ``beforeHistoryFilesRead``.
    let historyReadHook = Lock<(@Sendable () throws -> Void)?>(nil)

    /// What a save returns.
    typealias SaveResult = DataStoreSaveChangesResult<JSONFileHistoryToken>

    /// Opens the store in the configuration's directory, creating it if it does not exist (unless read-only).
    /// A writer also removes temporary files that crashed processes left behind.
    ///
    /// - Throws: ``DataStoreError/storageUnavailable(path:reason:)`` when the directory cannot be created or
    ///   written, or a read-only store does not exist; ``DataStoreError/corruptStoreFile(path:offset:reason:)``
    ///   for damage other than an incomplete last record; ``DataStoreError/unsupportedFormatVersion(path:found:supported:)``
    ///   for files of a newer format; ``DataStoreError/invalidConfiguration(reason:)`` when the directory holds
    ///   a store of another name; ``DataStoreError/storeLocked(path:)`` when another process holds the lock
    ///   for longer than the busy timeout; ``DataStoreError/invalidRelationship(entity:relationship:identifier:reason:)``
    ///   for a schema whose relationships do not fit together (``Schema/validateRelationships()``). In every
    ///   case the files are left as they were.
    public init(_ configuration: JSONFileStoreConfiguration) throws {
        guard !configuration.name.isEmpty else {
            throw DataStoreError.invalidConfiguration(reason: "a store needs a non-empty name")
        }
        if let bytes = configuration.checkpointJournalBytes, bytes < 1 {
            throw DataStoreError.invalidConfiguration(
                reason: "checkpointJournalBytes must be at least 1 byte, not \(bytes)")
        }
        if let ratio = configuration.checkpointJournalRatio, !(ratio > 0 && ratio.isFinite) {
            throw DataStoreError.invalidConfiguration(
                reason: "checkpointJournalRatio must be a finite number above 0, not \(ratio)")
        }
        if let count = configuration.historyRetention.maximumTransactionCount, count < 1 {
            throw DataStoreError.invalidConfiguration(
                reason: "historyRetention.maximumTransactionCount must be at least 1, not \(count)")
        }
        if let age = configuration.historyRetention.maximumAge, !(age > 0 && age.isFinite) {
            throw DataStoreError.invalidConfiguration(
                reason: "historyRetention.maximumAge must be a positive number of seconds, not \(age)")
        }
        if let bytes = configuration.historyRetention.maximumBytes, bytes < 1 {
            throw DataStoreError.invalidConfiguration(
                reason: "historyRetention.maximumBytes must be at least 1 byte, not \(bytes)")
        }
        try configuration.schema?.validateRelationships()
        self.configuration = configuration
        self.identifier = configuration.name
        let files = StoreDirectory(configuration.directory)
        self.files = files
        let readOnly = configuration.isReadOnly
        if readOnly {
            guard StoreFile.exists(files.journal) else {
                throw DataStoreError.storageUnavailable(
                    path: files.path, reason: "there is no store to open read-only")
            }
        } else {
            do {
                try FileManager.default.createDirectory(atPath: files.path, withIntermediateDirectories: true)
            } catch {
                throw DataStoreError.storageUnavailable(
                    path: files.path, reason: "cannot create the directory: \(error)")
            }
        }
        let loaded = try FileLock.withLock(
            readOnly ? .shared : .exclusive, path: files.lock, readOnly: readOnly,
            timeout: configuration.busyTimeout, countsFailure: false
        ) {
            if !readOnly {
                try AtomicFileWriter.removeLeftovers(in: files.path)
                if !StoreFile.exists(files.journal) {
                    try JournalIO.createJournal(
                        files: files, name: configuration.name, epoch: UUID(), schema: configuration.schema,
                        schemaGeneration: 0)
                }
            }
            var loaded = try JournalIO.load(
                files: files, configuration: configuration, repairTornTail: !readOnly)
            try Self.reconcileSchema(&loaded, files: files, configuration: configuration)
            return loaded
        }
        var initial = State(
            replayed: loaded.state, journalPin: loaded.pin, journalEnd: loaded.end,
            journalFormat: loaded.format)
        initial.statistics.fullReloads = 1
        initial.statistics.bytesRead = loaded.bytesRead
        access = try FileStoreAccess(
            initial, lockPath: files.lock, readOnly: readOnly, busyTimeout: configuration.busyTimeout)
    }

    /// Whether the journal is exactly what `state` was read from. A journal of format 3 or later has not
    /// changed if no writer has released the lock since (`unchangedSinceRead`, from the lock file's change
    /// count): no system call. An older journal (which an older library may be appending to) is checked by
    /// one `fstat` of the journal `state` holds open: it must still have a name (the journal is only ever
    /// replaced by rename, which leaves the old file without one) and the size `state` read to.
    func isCurrent(_ state: State, unchangedSinceRead: Bool) -> Bool {
        if state.journalIsPreallocated { return unchangedSinceRead }
        guard let status = try? state.journalPin.status() else { return false }
        return status.links > 0 && status.size == state.journalEnd
    }

    /// Brings `state` up to date with the files: nothing if the journal is unchanged (one `stat`, and for a
    /// journal with free space a one-byte read), the new records if there are any, a full reload if it was
    /// replaced.
    /// Call holding the file lock.
    func refresh(_ state: inout State, repairTornTail: Bool) throws {
        guard let status = StoreFile.status(atPath: files.journal) else {
            throw DataStoreError.storageUnavailable(
                path: files.journal, reason: "the journal has disappeared")
        }
        if status.identity == state.journalIdentity && status.size == state.journalEnd { return }
        if status.identity != state.journalIdentity || status.size < state.journalEnd {
            let loaded = try JournalIO.load(
                files: files, configuration: configuration, repairTornTail: repairTornTail)
            state.replayed = loaded.state
            state.journalPin = loaded.pin
            state.journalEnd = loaded.end
            state.journalFormat = loaded.format
            state.statistics.fullReloads += 1
            state.statistics.bytesRead += loaded.bytesRead
            return
        }
        // Free space where the last record read ended: nothing new (a record never starts with a zero).
        if state.journalIsPreallocated, try state.journalPin.byte(at: state.journalEnd) == 0 { return }
        let before = state.journalEnd
        let caughtUp = try JournalIO.catchUp(
            &state.replayed, files: files, from: state.journalEnd, repairTornTail: repairTornTail)
        state.journalEnd = caughtUp.end
        state.statistics.bytesRead += caughtUp.bytesRead
        if caughtUp.end != before { state.statistics.incrementalRefreshes += 1 }
    }

    /// Runs `body` on state that is current with the files (see `FileStoreAccess`); throws `schemaChanged` when
    /// another process migrated the store away from this instance's schema.
    func read<T: Sendable>(_ body: (inout State) throws -> T) throws -> T {
        let checked = { (state: inout State) throws -> T in
            try self.checkSchema(state)
            return try body(&state)
        }
        return try access.read(
            isCurrent: isCurrent, refresh: { try refresh(&$0, repairTornTail: false) }, checked)
    }

    /// Throws `schemaChanged` when the files hold rows in a layout other than the one this instance enforces.
    func checkSchema(_ state: State) throws(DataStoreError) {
        if let conflict = state.replayed.schemaConflict {
            throw .schemaChanged(store: identifier, reason: conflict)
        }
    }

    /// Runs `body` holding the shared file lock after reading what changed, even when a `stat` says nothing
    /// did: for `verify()`, which must look at the files.
    func readFromFiles<T: Sendable>(_ body: (inout State) throws -> T) throws -> T {
        try access.read(
            isCurrent: { _, _ in false }, refresh: { try refresh(&$0, repairTornTail: false) }, body)
    }

    /// Runs `body` on current state holding the exclusive file lock; a torn tail is cut back first.
    func write<T: Sendable>(_ body: (inout State) throws -> T) throws -> T {
        guard !configuration.isReadOnly else { throw DataStoreError.readOnlyStore(store: identifier) }
        let checked = { (state: inout State) throws -> T in
            try self.checkSchema(state)
            return try body(&state)
        }
        return try access.write(refresh: { try refresh(&$0, repairTornTail: true) }, checked)
    }

    /// Fetches snapshots of one entity from current state; `persistentModelID ==` looks the row up directly, and
    /// an equality on an indexed attribute examines only the models holding the value.
    public func fetch<Model: PersistentModel>(_ request: DataStoreFetchRequest<Model>) throws
        -> DataStoreFetchResult
    {
        let bounds = ModelPredicateBounds<Model>(request.descriptor.predicate)
        let (candidates, rows) = try read { state in
            let candidates = state.replayed.table.selectCandidates(for: request.descriptor, bounds: bounds)
            state.statistics.modelsExamined += candidates.rows.count
            return (candidates, state.replayed.table.relatedRows(for: Model.self))
        }
        return DataStoreFetchResult(
            snapshots: try SnapshotQuery.run(
                request.descriptor, candidates: candidates, storeIdentifier: identifier, relatedRows: rows,
                bounds: bounds))
    }

    /// Commits the request as one journal record, after catching up on other processes' commits.
    ///
    /// - Throws: ``DataStoreError/readOnlyStore(store:)`` for a read-only store, the save's validation errors,
    ///   or ``DataStoreError/storageUnavailable(path:reason:)`` if the write or fsync fails; then nothing was
    ///   committed.
    public func save(_ request: DataStoreSaveChangesRequest) throws -> DataStoreSaveChangesResult<
        JSONFileHistoryToken
    > {
        guard !configuration.isReadOnly else { throw DataStoreError.readOnlyStore(store: identifier) }
        // A trim or checkpoint a writer killed after its save left undone goes first: each killed writer would
        // otherwise leave one more transaction past the limits.
        maintainIfDue()
        // The last bulk save's record, if this save wrote one, is let go however the save ends.
        defer { dropRecentEncodings() }
        // Saves that arrive while one is being written are written with the next batch: one append, one fsync.
        let result = try commits.submit(request) { batch in commit(batch) }
        maintainIfDue()
        return result
    }

    /// Lets go of the last bulk save's record once the checkpoint it may trigger is done: a checkpoint later
    /// would find few of its rows unchanged, and the record can be tens of megabytes.
    func dropRecentEncodings() {
        recentEncodings.withLock { $0 = nil }
    }

    /// Whether the store still holds a bulk save's record (for tests: it must not outlive the save).
    var holdsRecentEncodings: Bool { recentEncodings.withLock { $0 != nil } }

    /// Commits a batch of saves as consecutive transactions: plans each on current state as the earlier ones
    /// leave it, appends all their records in one write and one fsync without holding the state (readers go
    /// on), then applies them. A save whose plan fails gets its own error; if the write fails, every save
    /// with a record gets that error and nothing is committed.
    func commit(_ batch: [CommitQueue<DataStoreSaveChangesRequest, SaveResult>.Pending]) {
        do {
            let results = try commit { _ in batch.map(\.request) }
            for (pending, result) in zip(batch, results) { pending.result = result }
        } catch {
            for pending in batch { pending.result = .failure(error) }
        }
    }

    /// Commits, as consecutive transactions, the requests `resolve` makes from current state (read under the
    /// file lock, after catching up on other processes' commits), as `plan` plans them (by default the table's
    /// planner), and returns each one's result. A batch delete finds its matches there, so that they are
    /// exactly the matches when its transaction commits.
    func commit(
        resolving resolve: (State) throws -> [DataStoreSaveChangesRequest],
        planning plan: (State, [DataStoreSaveChangesRequest]) throws -> [Result<SavePlan, DataStoreError>] = {
            state, requests in state.replayed.table.plan(requests)
        }
    ) throws -> [Result<SaveResult, any Error>] {
        typealias Prepared = (
            plans: [Result<SavePlan, DataStoreError>], bodies: [JournalRecord.TransactionRecord?], at: Int64,
            journal: StoreFile.Identity, preallocated: Bool, room: Int64?
        )
        return try access.write(
            refresh: { try refresh(&$0, repairTornTail: true) },
            prepare: { state -> Prepared in
                try checkSchema(state)
                let requests = try resolve(state)
                let plans = try plan(state, requests)
                var sequence = state.replayed.latestSequence
                var firstChange = state.replayed.nextChangeIdentifier
                // Never earlier than the previous transaction, whichever process wrote it.
                let timestamp = max(Date(), state.replayed.lastTimestamp)
                var bodies: [JournalRecord.TransactionRecord?] = []
                for (request, planned) in zip(requests, plans) {
                    guard case .success(let plan) = planned, !plan.changes.isEmpty else {
                        bodies.append(nil)
                        continue
                    }
                    sequence += 1
                    let editing = request.editingState
                    bodies.append(
                        JournalRecord.TransactionRecord(
                            sequence: sequence, timestamp: timestamp, author: editing.author,
                            bundle: editing.bundleIdentifier, process: editing.processIdentifier,
                            firstChange: firstChange, changes: plan.changes))
                    firstChange += Int64(plan.changes.count)
                }
                // Several records in one append: each says where the append began (see `write`).
                if bodies.compactMap({ $0 }).count > 1 {
                    for index in bodies.indices { bodies[index]?.write = state.journalEnd }
                }
                let room = configuration.historyRetention.maximumBytes.map {
                    $0 - state.replayed.history.fileBytes(journalEnd: state.journalEnd)
                }
                return (
                    plans, bodies, state.journalEnd, state.journalIdentity, state.journalIsPreallocated,
                    room
                )
            },
            perform: { prepared -> [Int64] in
                var encodings: RowEncodings?
                let lines = try prepared.bodies.compactMap { body throws(DataStoreError) in
                    try body.map { body throws(DataStoreError) in
                        guard body.changes.count >= RowEncodings.minimumChanges else {
                            return try JournalIO.encode(.transaction(body))
                        }
                        // A bulk save: its values are noted for a checkpoint right after it.
                        let (line, noted) = RowEncodings.line(of: body)
                        encodings = noted ?? encodings
                        return line
                    }
                }
                guard !lines.isEmpty else { return [] }
                let journal = try openJournal.file(identity: prepared.journal, path: files.journal)
                let durable = configuration.durability == .full
                // Free space pays off only where an fdatasync would flush the file's growing size.
                let freeSpace =
                    durable && prepared.preallocated
                    ? JournalIO.freeSpace(after: lines.reduce(0) { $0 + $1.count }, room: prepared.room)
                    : 0
                try journal.appendRecords(
                    lines, at: prepared.at, synchronize: durable, freeSpace: freeSpace)
                if let encodings { recentEncodings.withLock { $0 = encodings } }
                return lines.map { Int64($0.count) }
            },
            finish: { state, prepared, lengths -> [Result<SaveResult, any Error>] in
                try finishCommit(prepared.plans, prepared.bodies, lengths: lengths, in: &state)
            })
    }

    /// Applies a committed batch, whose records have `lengths` in order from the journal's end, in memory and
    /// makes each save's result.
    private func finishCommit(
        _ plans: [Result<SavePlan, DataStoreError>], _ bodies: [JournalRecord.TransactionRecord?],
        lengths: [Int64], in state: inout State
    ) throws -> [Result<SaveResult, any Error>] {
        var results: [Result<SaveResult, any Error>] = []
        var offset = state.journalEnd
        var lengths = lengths.makeIterator()
        for (planned, body) in zip(plans, bodies) {
            switch planned {
            case .failure(let error):
                results.append(.failure(error))
            case .success(let plan):
                // Without a body too: what the store holds may differ from what was sent although nothing changed
                // (an edit of a list another saver made already), and the context takes it.
                var result = SaveResult(
                    storeIdentifier: identifier, remappedIdentifiers: plan.remappedIdentifiers, token: nil,
                    deleteRuleChanges: plan.deleteRuleChanges)
                if let body {
                    state.replayed.apply(body, at: offset)
                    offset += lengths.next() ?? 0
                    state.statistics.committedSaves += 1
                    result.token = JSONFileHistoryToken(
                        storeIdentifier: identifier, epoch: state.replayed.epoch, sequence: body.sequence)
                }
                results.append(.success(result))
            }
        }
        let written = offset - state.journalEnd
        guard written > 0 else { return results }
        state.journalEnd = offset
        state.statistics.journalBytesWritten += written
        if configuration.durability == .full { state.statistics.journalSynchronizations += 1 }
        return results
    }

    /// Trims history and checkpoints as the configuration asks, before and after each save: aside (see
    /// ``writeAside(when:_:)``), so that readers of this instance answer from the state before it while it
    /// writes. Whatever a writer leaves undone (a process killed between its save and its trim) the next
    /// save in any process does before it writes. The saves before it are committed whatever happens here: a failure is
    /// counted in the statistics, and one that leaves the files in doubt makes later calls throw
    /// ``DataStoreError/storeUnusableUntilReopened(path:reason:)``.
    func maintainIfDue() {
        guard access.inMemory({ maintenanceIsDue($0) }) else { return }
        _ = try? writeAside(when: maintenanceIsDue) { state in try maintain(&state) }
    }

    /// Whether a trim or checkpoint is due, from memory: the thresholds ``maintain(_:)`` applies (an age limit
    /// is due whenever the oldest retained transaction may be past it).
    private func maintenanceIsDue(_ state: State) -> Bool {
        if let retry = state.maintenanceRetry, retry.journal == state.journalIdentity,
            state.journalEnd < retry.end
        {
            return false
        }
        if checkpointIsDue(state) { return true }
        let policy = configuration.historyRetention
        let index = state.replayed.history
        if let limit = policy.maximumTransactionCount, index.count >= limit + policy.margin { return true }
        if let bound = policy.maximumBytes, index.fileBytes(journalEnd: state.journalEnd) > bound {
            return true
        }
        if let age = policy.maximumAge, let oldest = index.oldest(1).first {
            guard let known = index.oldestTimestamp, known.sequence == oldest else { return true }
            return known.timestamp < Date().addingTimeInterval(-age)
        }
        return false
    }

    /// Whether the journal has grown past the checkpoint threshold: ``JSONFileStoreConfiguration/checkpointJournalBytes``,
    /// or ``JSONFileStoreConfiguration/checkpointJournalRatio`` times the snapshot's size if that is more.
    private func checkpointIsDue(_ state: State) -> Bool {
        guard let bytes = configuration.checkpointJournalBytes else { return false }
        let proportional = configuration.checkpointJournalRatio.map {
            Int64(min(Double(Int64.max / 2), Double(state.replayed.snapshotBytes) * $0))
        }
        return state.journalEnd > max(bytes, proportional ?? 0)
    }

    /// Runs `body` holding the exclusive file lock on a copy of current state, with the state mutex released,
    /// then puts the copy in place: for maintenance that writes whole files (checkpoints, trims), during which
    /// readers of this instance go on answering from the state before it. `when` decides, on current state,
    /// whether to run at all (`nil` when it does not). If `body` throws, the copy still replaces the state:
    /// it holds whatever `body` committed before it failed.
    @discardableResult
    func writeAside<T: Sendable>(
        when isDue: (State) -> Bool = { _ in true }, _ body: (inout State) throws -> T
    ) throws -> T? {
        guard !configuration.isReadOnly else { throw DataStoreError.readOnlyStore(store: identifier) }
        return try access.write(
            refresh: { try refresh(&$0, repairTornTail: true) },
            prepare: { state -> State? in
                try checkSchema(state)
                guard isDue(state) else { return nil }
                // A copy shares the models' storage: only what `body` changes is copied.
                var copy = state
                copy.statistics = JSONFileStoreStatistics()
                copy.statistics.lastMaintenanceError = state.statistics.lastMaintenanceError
                return copy
            },
            perform: { prepared -> (State, Result<T, any Error>)? in
                guard var copy = prepared else { return nil }
                let result = Result { try body(&copy) }
                return (copy, result)
            },
            finish: { state, _, done -> T? in
                guard let (copy, result) = done else { return nil }
                // Readers counted their work on the state meanwhile; `body` counted its own on the copy.
                var statistics = state.statistics
                statistics.add(copy.statistics)
                state = copy
                state.statistics = statistics
                return try result.get()
            })
    }

    /// Trims history and checkpoints as the configuration asks.
    private func maintain(_ state: inout State) throws {
        do {
            let before = state.statistics.checkpoints
            try applyRetention(&state)
            if checkpointIsDue(state) { try checkpoint(&state) }
            if state.statistics.checkpoints > before { state.statistics.lastMaintenanceError = nil }
            state.maintenanceRetry = nil
        } catch let error as DataStoreError where error.code == .storeUnusableUntilReopened {
            throw error  // The store must be reopened; every later call says so.
        } catch {
            // Nothing committed depends on it; a trim or checkpoint that failed (a full disk) is counted,
            // reported in the statistics, and tried again once the journal has grown by an eighth of the
            // checkpoint threshold.
            state.statistics.failedMaintenance += 1
            state.statistics.lastMaintenanceError =
                error as? DataStoreError
                ?? .storageUnavailable(path: files.path, reason: "a checkpoint failed: \(error)")
            let step = max(1, (configuration.checkpointJournalBytes ?? (4 << 20)) / 8)
            state.maintenanceRetry = (state.journalIdentity, state.journalEnd + step)
        }
    }

    /// Deletes every model and all history, and draws a new epoch, so earlier tokens stop matching in every
    /// process. The new journal replaces the old one atomically.
    public func erase() throws {
        try write { state in
            try JournalIO.createJournal(
                files: files, name: identifier, epoch: UUID(), schema: state.replayed.effectiveSchema,
                schemaGeneration: 0)
            try AtomicFileWriter.remove(files.snapshot)
            JournalIO.removeSegments(except: [], files: files)
            openJournal.close()
            let loaded = try JournalIO.load(files: files, configuration: configuration, repairTornTail: true)
            state.replayed = loaded.state
            state.journalPin = loaded.pin
            state.journalEnd = loaded.end
            state.journalFormat = loaded.format
        }
    }

    /// The token of the newest transaction (sequence 0 when there is none), after catching up.
    public func currentToken() throws -> JSONFileHistoryToken {
        try read { state in
            JSONFileHistoryToken(
                storeIdentifier: identifier, epoch: state.replayed.epoch,
                sequence: state.replayed.latestSequence)
        }
    }

    /// The number of models held, after catching up.
    public func modelCount() throws -> Int {
        try read { $0.replayed.table.count }
    }

    /// The number of models of each entity, after catching up.
    public func modelCountsByEntity() throws -> [String: Int] {
        try read { $0.replayed.table.countsByEntity }
    }

    /// Counters of this instance's work so far.
    public var statistics: JSONFileStoreStatistics { access.inMemory { $0.statistics } }
}
