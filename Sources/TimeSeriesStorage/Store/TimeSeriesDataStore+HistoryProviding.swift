public import DataStoreCore
@_spi(DataStoreInternals) import DataStoreKit
import Foundation
import Synchronization

extension TimeSeriesDataStore: HistoryProvidingStore {
    /// The store's transaction type.
    public typealias HistoryType = TimeSeriesHistoryTransaction

    func query(for state: State) -> HistoryQuery<TimeSeriesHistoryTransaction> {
        HistoryQuery(
            storeIdentifier: identifier, epoch: state.index.epoch,
            oldestValidSequence: state.index.oldestValid,
            latestSequence: state.latestSequence)
    }

    /// Fetches history. Tokens are validated first (O(1)); then only the segments holding the sequences the
    /// predicate allows are read, and the query seeks within them.
    public func fetchHistory(_ descriptor: HistoryDescriptor<TimeSeriesHistoryTransaction>) throws
        -> [TimeSeriesHistoryTransaction]
    {
        let bounds = HistoryPredicateBounds(descriptor.predicate)
        let (historyQuery, log) = try read { state in
            let historyQuery = query(for: state)
            try historyQuery.validate(bounds)
            let (lower, upper) = historyQuery.sequenceBounds(bounds)
            let sources = segments(in: state) { _, _, first, last in last >= lower && first <= upper }
            let epoch = state.index.epoch
            return (historyQuery, try commits(of: sources, in: &state).map { transaction($0, epoch: epoch) })
        }
        var statistics = HistoryQueryStatistics()
        defer { access.inMemory { $0.statistics.history.add(statistics) } }
        return try historyQuery.run(descriptor, over: log, statistics: &statistics)
    }

    /// Deletes history, which in a time-series store is also the samples: the selection must be the oldest
    /// transactions (a prefix of history). Whole segments are removed; a segment the cut passes through is
    /// rewritten without the deleted commits. Tokens before the cut expire.
    ///
    /// - Throws: ``DataStoreError/historyDeletionUnsupported(store:reason:)`` when the selection is not a
    ///   prefix; nothing is deleted then.
    public func deleteHistory(_ descriptor: HistoryDescriptor<TimeSeriesHistoryTransaction>) throws {
        try write { state in
            let epoch = state.index.epoch
            let retained = try commits(of: segments(in: state) { _, _, _, _ in true }, in: &state)
                .map { transaction($0, epoch: epoch) }
            var everything = descriptor
            everything.fetchLimit = nil
            var statistics = HistoryQueryStatistics()
            let doomed = try query(for: state).run(everything, over: retained, statistics: &statistics)
            state.statistics.history.add(statistics)
            guard let cut = doomed.last?.token.sequence else { return }
            guard
                doomed.map(\.token.sequence)
                    == retained.prefix(while: { $0.token.sequence <= cut }).map(\.token.sequence)
            else {
                throw DataStoreError.historyDeletionUnsupported(
                    store: identifier,
                    reason: "a time-series store deletes only its oldest transactions, up to a token")
            }
            try removeHistory(through: cut, in: &state)
        }
    }

    /// Advances the oldest valid sequence to `cut`, then removes or rewrites the segments holding commits up to
    /// it. The index is written first: readers skip commits at or below it, so a crash before the files are
    /// reclaimed loses nothing and shows nothing deleted.
    func removeHistory(through cut: Int64, in state: inout State) throws {
        var index = state.index
        index.oldestValid = max(index.oldestValid, cut)
        index.lastSequence = state.latestSequence
        index.nextChange = state.nextChange
        index.lastCommit = state.lastCommit
        let removed = index.segments.filter { $0.lastSequence <= cut }
        index.segments.removeAll { $0.lastSequence <= cut }
        var removeActive = false
        if let active = state.active, let last = active.commits.last?.sequence, last <= cut {
            index.active = nil
            removeActive = true
        }
        try writeIndex(index, in: &state)
        for segment in removed { try AtomicFileWriter.remove(files.segment(segment.file)) }
        if removeActive, let active = state.active {
            try AtomicFileWriter.remove(files.segment(active.file))
            state.active = nil
        }
        state.statistics.segmentsRemoved += removed.count + (removeActive ? 1 : 0)
        try reclaimStraddlingSegment(through: cut, in: &state)
    }

    /// Rewrites the one segment that holds commits on both sides of the cut, keeping those after it.
    private func reclaimStraddlingSegment(through cut: Int64, in state: inout State) throws {
        if var active = state.active, let first = active.commits.first?.sequence, first <= cut {
            active.removeCommits(through: cut)
            active.end = try rewrite(
                active.file, partition: active.partition, commits: active.commits, epoch: state.index.epoch)
            state.active = active
        }
        guard let position = state.index.segments.firstIndex(where: { $0.firstSequence <= cut }) else {
            return
        }
        let segment = state.index.segments[position]
        let kept = try files.readClosed(segment, oldestValid: state.index.oldestValid).filter {
            $0.sequence > cut
        }
        let size = try rewrite(
            segment.file, partition: segment.partition, commits: kept, epoch: state.index.epoch)
        var reclaimed = ActiveSegment(
            file: segment.file, partition: segment.partition, commits: kept, end: size
        )
        .closed(byteSize: size)
        reclaimed?.nextChange = segment.nextChange
        var index = state.index
        if let reclaimed { index.segments[position] = reclaimed } else { index.segments.remove(at: position) }
        try writeIndex(index, in: &state)
    }

    private func rewrite(_ file: String, partition: Date, commits: [SegmentRecord.Commit], epoch: UUID) throws
        -> Int64
    {
        var contents = try SegmentFiles.frame(
            SegmentRecord.header(
                .init(
                    format: SegmentFiles.formatVersion, store: identifier, epoch: epoch, partition: partition)
            ))
        for commit in commits { contents.append(CommitCodec.line(commit)) }
        try AtomicFileWriter.replace(files.segment(file), with: contents)
        return Int64(contents.count)
    }

    /// Applies the retention policy now: removes the oldest segments whose newest sample is older than the
    /// maximum age, and the oldest closed segments while the total size exceeds the maximum.
    public func applyRetention() throws {
        try write { state in try applyRetention(in: &state) }
    }

    /// Retention removes a prefix of segments only, so history never has a hole.
    func applyRetention(in state: inout State) throws {
        let policy = configuration.retention
        var cut: Int64?
        if let age = policy.maximumAge {
            let oldest = Date().addingTimeInterval(-age)
            for segment in state.index.segments {
                guard segment.latest < oldest else { break }
                cut = segment.lastSequence
            }
            if cut == state.index.segments.last?.lastSequence, let active = state.active,
                let latest = active.latest,
                latest < oldest
            {
                cut = active.commits.last?.sequence
            }
        }
        if let limit = policy.maximumSize {
            var total = state.index.segments.reduce(Int64(0)) { $0 + $1.byteSize } + (state.active?.end ?? 0)
            for segment in state.index.segments where total > limit {
                total -= segment.byteSize
                cut = max(cut ?? 0, segment.lastSequence)
            }
        }
        guard let cut, cut > state.index.oldestValid else { return }
        try removeHistory(through: cut, in: &state)
    }
}

extension TimeSeriesDataStore: HistoryObserving {
    /// The transactions after `token`, then each new commit by any process, through the shared file watcher
    /// (inotify on Linux, 250 ms polling elsewhere).
    public func historyUpdates(after token: TimeSeriesHistoryToken?) -> AsyncThrowingStream<
        TimeSeriesHistoryTransaction, any Error
    > {
        // Commits append to a segment, or create one by renaming it into place (temporary files end in .tmp-PID).
        HistoryFeed.stream(
            of: self, watching: files.segments, commitFiles: { $0.hasSuffix(".jsonl") }, after: token)
    }

    /// Yields when a process may have committed: the same watch of the segments as
    /// ``historyUpdates(after:)``, without reading any history.
    public func commitSignals() -> AsyncStream<Void> {
        let directory = files.segments
        return HistoryFeed.signals(
            label: directory,
            waker: { ChangeWatcher(directory: directory, isCommitFile: { $0.hasSuffix(".jsonl") }) })
    }
}

extension TimeSeriesDataStore: HistoryReadCounting {
    /// The history transactions this instance examined since it was opened.
    public var historyTransactionsExamined: Int { statistics.history.examinedTransactions }
}
