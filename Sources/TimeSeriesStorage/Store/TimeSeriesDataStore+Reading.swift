public import DataStoreCore
import DataStoreKit
import Foundation

extension TimeSeriesDataStore {
    /// A segment's place in the store: closed (on disk, listed in the index) or the one being written.
    enum SegmentSource: Sendable {
        case closed(SegmentIndex.Segment)
        case active(ActiveSegment)
    }

    /// The commits of the given segments, skipping any at or below the oldest valid sequence (retention may
    /// have advanced it before reclaiming a segment's space). With a `window`, closed segments' commits hold
    /// only the samples in it (for fetches, never for history).
    func commits(
        of sources: [SegmentSource], in state: inout State, window: CommitCodec.SampleWindow? = nil
    ) throws -> [SegmentRecord.Commit] {
        var result: [SegmentRecord.Commit] = []
        for source in sources {
            state.statistics.segmentsOpened += 1
            switch source {
            case .closed(let segment):
                result += try files.readClosed(segment, oldestValid: state.index.oldestValid, window: window)
            case .active(let active): result += active.commits
            }
        }
        return result.filter { $0.sequence > state.index.oldestValid }.map(state.index.upgraded)
    }

    /// The segments, oldest first, whose ranges `include` accepts: (earliest sample, latest sample, first
    /// sequence, last sequence).
    func segments(in state: State, where include: (Date, Date, Int64, Int64) -> Bool) -> [SegmentSource] {
        var sources = state.index.segments.filter {
            include($0.earliest, $0.latest, $0.firstSequence, $0.lastSequence)
        }
        .map(SegmentSource.closed)
        if let active = state.active, let earliest = active.earliest, let latest = active.latest,
            let first = active.commits.first?.sequence, let last = active.commits.last?.sequence,
            include(earliest, latest, first, last)
        {
            sources.append(.active(active))
        }
        return sources
    }

    /// Fetches samples of one entity. A predicate bounding the timestamp attribute opens only the segments
    /// whose sample times overlap the range, and within them only the commits that do; comparisons on
    /// attributes are checked on the samples' values, and when they are the whole predicate it is not
    /// evaluated again.
    public func fetch<Model: PersistentModel>(_ request: DataStoreFetchRequest<Model>) throws
        -> DataStoreFetchResult
    {
        let bounds = ModelPredicateBounds<Model>(request.descriptor.predicate)
        var lower = Date.distantPast
        var upper = Date.distantFuture
        for constraint in bounds.attributeConstraints
        where constraint.name == configuration.timestampAttribute {
            guard case .date(let date) = constraint.value else { continue }
            switch constraint.relation {
            case .greaterThan, .greaterThanOrEqual: lower = max(lower, date)
            case .lessThan, .lessThanOrEqual: upper = min(upper, date)
            case .equal:
                lower = max(lower, date)
                upper = min(upper, date)
            case .notEqual: break
            }
        }
        // Comparisons on attributes are applied to each sample's values here: a sample that fails one fails
        // the predicate. When they are the whole predicate and every sample holds the attributes they name, the
        // predicate is not evaluated again (that would materialise a model per sample).
        let constraints = bounds.attributeConstraints
        let native =
            bounds.isExact && bounds.identifier == nil && bounds.identifiers == nil
            && bounds.attributeMembership == nil && !constraints.isEmpty
        let (candidates, exact): ([DataStoreSnapshot], Bool) = try read { state in
            let sources = segments(in: state) { earliest, latest, _, _ in latest >= lower && earliest <= upper
            }
            var snapshots: [DataStoreSnapshot] = []
            var exact = native
            // A bounded range skips, inside straddling commits, the samples outside it before decoding them.
            let window =
                lower == .distantPast && upper == .distantFuture || lower > upper
                ? nil
                : CommitCodec.SampleWindow(attribute: configuration.timestampAttribute, range: lower...upper)
            for commit in try commits(of: sources, in: &state, window: window)
            where commit.latest >= lower && commit.earliest <= upper {
                samples: for sample in commit.samples where sample.entity == Model.entityName {
                    state.statistics.samplesExamined += 1
                    let time = sampleTime(sample)
                    guard time >= lower && time <= upper else { continue }
                    for constraint in constraints {
                        guard let value = sample.values[constraint.name] else {
                            exact = false
                            continue
                        }
                        guard value.satisfies(constraint.relation, constraint.value) else { continue samples }
                    }
                    snapshots.append(
                        DataStoreSnapshot(
                            persistentIdentifier: PersistentIdentifier(
                                storeIdentifier: identifier, entityName: sample.entity, primaryKey: sample.key
                            ),
                            values: sample.values))
                }
            }
            return (snapshots, exact)
        }
        var descriptor = request.descriptor
        if exact { descriptor.predicate = nil }
        let related = relatedRows(for: request.descriptor)
        return DataStoreFetchResult(
            snapshots: try SnapshotQuery.run(
                descriptor, over: candidates, storeIdentifier: identifier, relatedRows: related))
    }

    /// The transaction for a commit.
    func transaction(_ commit: SegmentRecord.Commit, epoch: UUID) -> TimeSeriesHistoryTransaction {
        let changes = commit.samples.enumerated().map { index, sample in
            TimeSeriesHistoryChange(
                changedPersistentIdentifier: PersistentIdentifier(
                    storeIdentifier: identifier, entityName: sample.entity, primaryKey: sample.key),
                changeIdentifier: commit.firstChange + Int64(index), transactionIdentifier: commit.sequence,
                kind: .insert, values: sample.values)
        }
        return TimeSeriesHistoryTransaction(
            timestamp: commit.timestamp, changes: changes,
            token: TimeSeriesHistoryToken(
                storeIdentifier: identifier, epoch: epoch, sequence: commit.sequence),
            author: commit.author, bundleIdentifier: commit.bundle, processIdentifier: commit.process)
    }
}
