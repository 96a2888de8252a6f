public import DataStoreCore
@_spi(DataStoreInternals) import DataStoreKit
import Foundation
import Synchronization

/// An insert-only store for samples (sensor readings, metrics, audit events), kept in time-partitioned
/// segment files with a retention policy, and with history a consumer resumes "after my token" without
/// scanning.
///
/// - **Insert-only.** A save holding any update or delete throws
///   ``DataStoreError/unsupportedChange(store:kind:entity:)`` and keeps nothing from that save.
/// - **Boundaries.** One save is one transaction, or, with a ``TimeSeriesStoreConfiguration/commitWindow``,
///   all saves inside the window are one. One sample is one change (an insert).
/// - **Storage.** Append-only segments under `segments/`, each covering one time partition
///   (``TimeSeriesStoreConfiguration/segmentSpan``), with `index.json` listing every closed segment's sample
///   time range and sequence range. A range query on the timestamp attribute opens only the segments it
///   overlaps; a history query only those holding the sequences it asks for.
/// - **Retention.** By age and total size, applied after each commit and by ``applyRetention()``; whole
///   segments go, and the oldest valid token moves forward with them.
/// - **Several processes.** Writers serialise on an exclusive `flock` and catch up first (so a second writer
///   is serialised safely, not refused); readers see new commits on their next call.
/// - **Crashes.** The same rules and record framing as the JSON file store: an incomplete last record of the
///   segment being written is cut back; any other damage (a closed segment that lost whole records too) throws ``DataStoreError/corruptStoreFile(path:offset:reason:)``.
///
/// See `Docs/TimeSeries.md`.
public final class TimeSeriesDataStore: DataStoreFlushing, Sendable {
    /// The store's configuration type.
    public typealias Configuration = TimeSeriesStoreConfiguration
    /// The store's token type.
    public typealias Token = TimeSeriesHistoryToken

    struct Pending: Sendable {
        var deadline: Date
        var editingState: EditingState
        var batch = SampleBatch()
    }

    struct State: Sendable {
        var index: SegmentIndex
        /// The index file `index` was read from, held open so that its inode is not reused (see `PinnedFile`).
        var indexPin: PinnedFile
        /// Its device and inode: a change means another process replaced the index.
        var indexIdentity: StoreFile.Identity { indexPin.identity }
        var active: ActiveSegment?
        var pending: Pending?
        var statistics = TimeSeriesStoreStatistics()
        /// The schema this instance enforces: the configuration's, or the one it migrated the store to.
        var enforced: Schema?

        /// The schema samples are checked and read under.
        var effectiveSchema: Schema? { enforced ?? index.schema }

        /// Why this instance must not go on: another process migrated the store to another layout.
        var schemaConflict: String? {
            guard let enforced, let recorded = index.schema, enforced.storageLayout != recorded.storageLayout
            else { return nil }
            return "its samples are now read in a different schema than this instance was opened with"
        }

        var latestSequence: Int64 {
            active?.commits.last?.sequence ?? max(index.lastSequence, index.segments.last?.lastSequence ?? 0)
        }
        var nextChange: Int64 {
            if let last = active?.commits.last { return last.firstChange + Int64(last.samples.count) }
            return max(index.nextChange, index.segments.last?.nextChange ?? 1)
        }
        var lastCommit: Date {
            active?.commits.last?.timestamp
                ?? max(index.lastCommit, index.segments.last?.lastCommit ?? .distantPast)
        }
        var latestSample: Date? {
            [active?.latest, index.segments.last?.latest].compactMap { $0 }.max()
        }
    }

    /// The configuration the store was opened with.
    public let configuration: TimeSeriesStoreConfiguration
    /// The store's identifier: the configuration's name.
    public let identifier: String
    /// The schema the store enforces: the configuration's, or without one the schema its index records (empty
    /// when there is none); ``migrate(to:applying:)`` changes it.
    public var schema: Schema { access.inMemory { $0.effectiveSchema } ?? Schema(entities: []) }
    let files: SegmentFiles
    let access: FileStoreAccess<State>

    /// Opens the store in the configuration's directory, creating it if needed (unless read-only).
    ///
    /// - Throws: ``DataStoreError/invalidConfiguration(reason:)`` for a non-positive span, lateness, window or
    ///   retention limit; ``DataStoreError/invalidRelationship(entity:relationship:identifier:reason:)`` for a
    ///   relationship this insert-only store cannot keep (see ``checkRelationships(_:)``);
    ///   ``DataStoreError/corruptStoreFile(path:offset:reason:)`` for damaged files or a
    ///   segment removed by hand; ``DataStoreError/storageUnavailable(path:reason:)`` when the directory cannot
    ///   be used. Files are left as they were.
    public init(_ configuration: TimeSeriesStoreConfiguration) throws {
        try configuration.validate()
        try Self.checkRelationships(configuration.schema)
        self.configuration = configuration
        self.identifier = configuration.name
        let files = SegmentFiles(configuration.directory)
        self.files = files
        if configuration.isReadOnly {
            guard StoreFile.exists(files.index) else {
                throw DataStoreError.storageUnavailable(
                    path: files.root, reason: "there is no store to open read-only")
            }
        } else {
            do {
                try FileManager.default.createDirectory(
                    atPath: files.segments, withIntermediateDirectories: true)
            } catch {
                throw DataStoreError.storageUnavailable(
                    path: files.root, reason: "cannot create the directory: \(error)")
            }
        }
        let readOnly = configuration.isReadOnly
        let loaded = try FileLock.withLock(
            readOnly ? .shared : .exclusive, path: files.lock, readOnly: readOnly,
            timeout: configuration.busyTimeout, countsFailure: false
        ) {
            if !readOnly {
                try AtomicFileWriter.removeLeftovers(in: files.root)
                try AtomicFileWriter.removeLeftovers(in: files.segments)
                if !StoreFile.exists(files.index) {
                    var index = SegmentIndex.empty(store: configuration.name, epoch: UUID())
                    index.schema = configuration.schema
                    try files.writeIndex(index)
                }
            }
            var loaded = try Self.load(files: files, configuration: configuration, repair: !readOnly)
            loaded.enforced = configuration.schema
            return loaded
        }
        access = try FileStoreAccess(
            loaded, lockPath: files.lock, readOnly: readOnly, busyTimeout: configuration.busyTimeout)
        if let target = configuration.schema { try reconcileSchema(with: target) }
    }

    /// Reads the index and the active segment; checks that every closed segment's file exists and has the
    /// size the index recorded (a segment that lost whole records is damage, not a shorter history).
    static func load(files: SegmentFiles, configuration: TimeSeriesStoreConfiguration, repair: Bool) throws
        -> State
    {
        let index = try files.readIndex(storeName: configuration.name)
        for segment in index.segments {
            try files.checkClosed(segment, oldestValid: index.oldestValid)
        }
        var active: ActiveSegment?
        if let named = index.active {
            let (commits, end) = try files.readActive(named.file, from: 0, repair: repair)
            active = ActiveSegment(file: named.file, partition: named.partition, commits: commits, end: end)
        }
        return State(index: index, indexPin: try PinnedFile(path: files.index), active: active)
    }

    /// Whether the index and the active segment are what `state` was read from (two `stat`s). The lock file's
    /// change count is not needed: a segment only grows, so its size says whether samples were appended.
    func isCurrent(_ state: State, unchangedSinceRead _: Bool) -> Bool {
        guard StoreFile.status(atPath: files.index)?.identity == state.indexIdentity else { return false }
        guard let active = state.active else { return true }
        return StoreFile.status(atPath: files.segment(active.file))?.size == active.end
    }

    /// Brings `state` up to date: a full reload if the index was replaced (a segment opened or closed,
    /// retention ran, the store was erased), otherwise only the bytes appended to the active segment.
    func refresh(_ state: inout State, repair: Bool) throws {
        guard let identity = StoreFile.status(atPath: files.index)?.identity else {
            throw DataStoreError.storageUnavailable(path: files.index, reason: "the index has disappeared")
        }
        if identity != state.indexIdentity {
            let pending = state.pending
            let statistics = state.statistics
            let enforced = state.enforced
            state = try Self.load(files: files, configuration: configuration, repair: repair)
            state.pending = pending
            state.statistics = statistics
            state.enforced = enforced
            return
        }
        guard var active = state.active,
            let size = StoreFile.status(atPath: files.segment(active.file))?.size,
            size != active.end
        else { return }
        let (commits, end) = try files.readActive(active.file, from: active.end, repair: repair)
        state.active = nil  // so that `active` is the only reference and grows in place
        active.append(contentsOf: commits)
        active.end = end
        state.active = active
    }

    /// Runs `body` on state that is current with the files (see `FileStoreAccess`).
    func read<T: Sendable>(_ body: (inout State) throws -> T) throws -> T {
        let checked = { (state: inout State) throws -> T in
            try self.checkSchema(state)
            return try body(&state)
        }
        return try access.read(
            isCurrent: isCurrent, refresh: { try refresh(&$0, repair: false) }, checked
        )
    }

    /// Throws `schemaChanged` when another process migrated the store away from this instance's schema.
    func checkSchema(_ state: State) throws(DataStoreError) {
        if let conflict = state.schemaConflict { throw .schemaChanged(store: identifier, reason: conflict) }
    }

    /// Runs `body` holding the shared file lock after reading what changed, even when a `stat` says nothing
    /// did: for `verify()`, which must look at the files.
    func readFromFiles<T: Sendable>(_ body: (inout State) throws -> T) throws -> T {
        try access.read(isCurrent: { _, _ in false }, refresh: { try refresh(&$0, repair: false) }, body)
    }

    /// Runs `body` on current state holding the exclusive file lock; a torn tail is cut back first.
    func write<T: Sendable>(_ body: (inout State) throws -> T) throws -> T {
        guard !configuration.isReadOnly else { throw DataStoreError.readOnlyStore(store: identifier) }
        let checked = { (state: inout State) throws -> T in
            try self.checkSchema(state)
            return try body(&state)
        }
        return try access.write(refresh: { try refresh(&$0, repair: true) }, checked)
    }

    // MARK: - Saving

    /// Appends the request's samples: as one transaction, or into the open commit window.
    ///
    /// - Throws: ``DataStoreError/unsupportedChange(store:kind:entity:)`` for any update or delete;
    ///   ``DataStoreError/invalidSave(store:reason:)`` for a sample without a date in the timestamp attribute,
    ///   outside the accepted lateness or future skew, naming a model twice, or of an unknown entity or
    ///   attribute. Nothing from a failed save is kept.
    public func save(_ request: DataStoreSaveChangesRequest) throws -> DataStoreSaveChangesResult<
        TimeSeriesHistoryToken
    > {
        guard !configuration.isReadOnly else { throw DataStoreError.readOnlyStore(store: identifier) }
        if let update = request.updated.first {
            throw DataStoreError.unsupportedChange(
                store: identifier, kind: .update, entity: update.persistentIdentifier.entityName)
        }
        if let delete = request.deleted.first {
            throw DataStoreError.unsupportedChange(
                store: identifier, kind: .delete, entity: delete.persistentIdentifier.entityName)
        }
        let batch = try validate(request.inserted)
        guard !batch.samples.isEmpty else {
            return DataStoreSaveChangesResult(storeIdentifier: identifier, token: nil)
        }
        guard let window = configuration.commitWindow else {
            // Prepare on current state, append and fsync without holding the state (readers go on), then
            // record the commit.
            return try access.write(
                refresh: { try refresh(&$0, repair: true) },
                prepare: { state in
                    try checkSchema(state)
                    try checkTimes(of: batch, against: state)
                    return try prepareCommit(batch, editingState: request.editingState, in: &state)
                },
                perform: { try append($0) },
                finish: { state, prepared, written in
                    DataStoreSaveChangesResult(
                        storeIdentifier: identifier,
                        token: try finishCommit(prepared, written: written, in: &state))
                })
        }
        PendingWindowFlusher.shared.register(self)
        return try write { state in
            try checkTimes(of: batch, against: state)
            var committed: TimeSeriesHistoryToken?
            if let pending = state.pending, pending.deadline <= Date() {
                committed = try commit(pending.batch, editingState: pending.editingState, in: &state)
                state.pending = nil
            }
            if state.pending == nil {
                state.pending = Pending(
                    deadline: Date().addingTimeInterval(window), editingState: request.editingState)
            }
            state.pending?.batch.append(contentsOf: batch)
            return DataStoreSaveChangesResult(storeIdentifier: identifier, token: committed)
        }
    }

    /// Commits the open commit window, so that closing a store never drops samples it accepted.
    deinit {
        guard !configuration.isReadOnly, access.inMemory({ $0.pending != nil }) else { return }
        do {
            try flush()
        } catch {
            FileHandle.standardError.write(
                Data(
                    "TimeSeriesStorage: committing the open window of '\(identifier)' on close failed: \(error)\n"
                        .utf8))
        }
    }

    /// Commits the open commit window now, if there is one, and returns its transaction's token. The store
    /// also does this when it is released, and when the process exits normally.
    @discardableResult
    public func flush() throws -> TimeSeriesHistoryToken? {
        guard !configuration.isReadOnly else { throw DataStoreError.readOnlyStore(store: identifier) }
        // The window is this instance's, in memory: with none open there is nothing to read or write.
        guard access.inMemory({ $0.pending != nil }) else { return nil }
        return try write { state in
            guard let pending = state.pending else { return nil }
            state.pending = nil
            return try commit(pending.batch, editingState: pending.editingState, in: &state)
        }
    }

    /// Checks every sample against the schema and request rules, and encodes them, before anything is written.
    func validate(_ inserted: [DataStoreSnapshot]) throws(DataStoreError) -> SampleBatch {
        let schema = schema
        let checksAttributes = configuration.schema != nil || !schema.entities.isEmpty
        return try SampleBatch(
            validating: inserted,
            rules: .init(
                store: identifier, schema: checksAttributes ? schema : nil,
                timestampAttribute: configuration.timestampAttribute))
    }

    func sampleTime(_ sample: SegmentRecord.Sample) -> Date {
        if case .date(let date) = sample.values[configuration.timestampAttribute] ?? .null { return date }
        return .distantPast
    }

    /// The lateness rule: a sample older than the newest by more than the accepted lateness, or further in the
    /// future than the accepted skew, is refused.
    func checkTimes(of batch: SampleBatch, against state: State) throws(DataStoreError) {
        let newest = max(state.latestSample ?? .distantPast, state.pending?.batch.latest ?? .distantPast)
        let earliestAccepted = newest.addingTimeInterval(-configuration.acceptedLateness)
        let latestAccepted = Date().addingTimeInterval(configuration.acceptedFutureSkew)
        // The batch's bounds answer for all of its samples; only a refusal looks for the sample to name.
        guard let earliest = batch.earliest, let latest = batch.latest,
            earliest < earliestAccepted || latest > latestAccepted
        else { return }
        for sample in batch.samples {
            let time = sampleTime(sample)
            if time < earliestAccepted {
                throw .invalidSave(
                    store: identifier,
                    reason:
                        "sample \(sample.key) at \(time) is older than the newest sample (\(newest)) by more than "
                        + "the accepted lateness of \(configuration.acceptedLateness) s")
            }
            if time > latestAccepted {
                throw .invalidSave(
                    store: identifier,
                    reason:
                        "sample \(sample.key) at \(time) is more than \(configuration.acceptedFutureSkew) s in the future"
                )
            }
        }
    }

    /// Writes one transaction: into the active segment, or a new one when the samples leave its partition.
    func commit(_ batch: SampleBatch, editingState: EditingState, in state: inout State) throws
        -> TimeSeriesHistoryToken
    {
        let prepared = try prepareCommit(batch, editingState: editingState, in: &state)
        return try finishCommit(prepared, written: try append(prepared), in: &state)
    }

    /// A commit ready to be appended: the record, and the segment file and offset it goes to.
    struct PreparedCommit: Sendable {
        var commit: SegmentRecord.Commit
        /// The commit's samples, checked and encoded.
        var batch: SampleBatch
        var file: String
        var offset: Int64
    }

    /// Builds the commit record and opens a new segment if its samples need one.
    func prepareCommit(_ batch: SampleBatch, editingState: EditingState, in state: inout State)
        throws -> PreparedCommit
    {
        let commit = SegmentRecord.Commit(
            sequence: state.latestSequence + 1, timestamp: max(Date(), state.lastCommit),
            author: editingState.author,
            bundle: editingState.bundleIdentifier, process: editingState.processIdentifier,
            firstChange: state.nextChange,
            earliest: batch.earliest ?? .distantPast, latest: batch.latest ?? .distantPast,
            samples: batch.samples)
        try openSegmentIfNeeded(for: commit, in: &state)
        guard let active = state.active else {
            throw DataStoreError.storageUnavailable(path: files.segments, reason: "no segment to write to")
        }
        return PreparedCommit(
            commit: commit, batch: batch, file: active.file, offset: active.end)
    }

    /// Appends the prepared commit (and fsyncs it when durable); returns the bytes written.
    func append(_ prepared: PreparedCommit) throws -> Int64 {
        try files.append(
            prepared.commit, samples: prepared.batch, to: prepared.file, at: prepared.offset,
            synchronize: configuration.isDurable)
    }

    /// Records an appended commit in memory, then applies retention.
    func finishCommit(_ prepared: PreparedCommit, written: Int64, in state: inout State) throws
        -> TimeSeriesHistoryToken
    {
        guard var active = state.active else {
            throw DataStoreError.storageUnavailable(path: files.segments, reason: "no segment to write to")
        }
        state.active = nil  // so that `active` is the only reference and grows in place
        active.append(contentsOf: CollectionOfOne(prepared.commit))
        active.end += written
        state.active = active
        state.statistics.bytesWritten += written
        state.statistics.commits += 1
        try applyRetention(in: &state)
        return TimeSeriesHistoryToken(
            storeIdentifier: identifier, epoch: state.index.epoch, sequence: prepared.commit.sequence)
    }

    /// Closes the active segment and opens a new one when the commit's newest sample falls past the active
    /// segment's partition. The index is rewritten before the new segment receives a commit.
    func openSegmentIfNeeded(for commit: SegmentRecord.Commit, in state: inout State) throws {
        let span = configuration.segmentSpan
        if let active = state.active, commit.latest < active.partition.addingTimeInterval(span) { return }
        let partition = Date(
            timeIntervalSinceReferenceDate: (commit.latest.timeIntervalSinceReferenceDate / span).rounded(
                .down) * span)
        let file = SegmentFiles.fileName(firstSequence: commit.sequence)
        let end = try files.createSegment(
            file,
            header: .init(
                format: SegmentFiles.formatVersion, store: identifier, epoch: state.index.epoch,
                partition: partition))
        var index = state.index
        if let active = state.active, let closed = active.closed(byteSize: active.end) {
            index.segments.append(closed)
        }
        index.active = .init(file: file, partition: partition, firstSequence: commit.sequence)
        index.lastSequence = state.latestSequence
        index.nextChange = state.nextChange
        index.lastCommit = state.lastCommit
        try writeIndex(index, in: &state)
        let closing = state.active
        state.active = ActiveSegment(file: file, partition: partition, commits: [], end: end)
        Self.releaseInBackground(closing)
    }

    /// Lets go of a closed segment's commits on another thread. The active segment holds its samples parsed,
    /// and freeing tens of thousands of them would otherwise cost the save that closes it about a tenth of
    /// its time; nothing reads them once the segment is closed.
    static func releaseInBackground(_ segment: ActiveSegment?) {
        guard let segment else { return }
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(segment) {} }
    }

    func writeIndex(_ index: SegmentIndex, in state: inout State) throws {
        try files.writeIndex(index)
        state.index = index
        state.indexPin = try PinnedFile(path: files.index)
    }

    /// Deletes every sample and all history, and draws a new epoch.
    public func erase() throws {
        try write { state in
            let doomed = state.index.segments.map(\.file) + (state.active.map { [$0.file] } ?? [])
            var empty = SegmentIndex.empty(store: identifier, epoch: UUID())
            empty.schema = state.effectiveSchema
            try writeIndex(empty, in: &state)
            for file in doomed { try AtomicFileWriter.remove(files.segment(file)) }
            state.active = nil
            state.pending = nil
        }
    }

    /// Counters of this instance's work so far.
    public var statistics: TimeSeriesStoreStatistics { access.inMemory { $0.statistics } }

    /// The segment files currently holding data, oldest first.
    public func segmentFiles() throws -> [String] {
        try read { state in
            state.index.segments.map(\.file) + (state.active.map { [$0.file] } ?? [])
        }
    }

    /// The token of the newest transaction (sequence 0 when there is none), after catching up.
    public func currentToken() throws -> TimeSeriesHistoryToken {
        try read { state in
            TimeSeriesHistoryToken(
                storeIdentifier: identifier, epoch: state.index.epoch, sequence: state.latestSequence)
        }
    }
}
