import DataStoreCore
import Foundation

/// The segment being written, held parsed in memory: its commits and where the next one goes.
///
/// Its sample-time bounds are kept as running values, and commits are appended in place, so a save costs
/// the same whether the segment holds ten commits or ten thousand.
struct ActiveSegment: Sendable {
    var file: String
    var partition: Date
    private(set) var commits: [SegmentRecord.Commit] = []
    /// The offset just past the last whole record.
    var end: Int64
    /// The earliest and latest sample time of its commits.
    private(set) var earliest: Date?
    private(set) var latest: Date?

    init(file: String, partition: Date, commits: [SegmentRecord.Commit], end: Int64) {
        self.file = file
        self.partition = partition
        self.end = end
        append(contentsOf: commits)
    }

    /// Adds commits read or written after the ones held.
    mutating func append(contentsOf new: some Sequence<SegmentRecord.Commit>) {
        for commit in new {
            commits.append(commit)
            earliest = min(earliest ?? commit.earliest, commit.earliest)
            latest = max(latest ?? commit.latest, commit.latest)
        }
    }

    /// Drops the commits at or below `cut` (deleted history).
    mutating func removeCommits(through cut: Int64) {
        let kept = commits.filter { $0.sequence > cut }
        commits = []
        earliest = nil
        latest = nil
        append(contentsOf: kept)
    }

    /// The index entry the segment gets when it closes.
    func closed(byteSize: Int64) -> SegmentIndex.Segment? {
        guard let first = commits.first, let last = commits.last, let earliest, let latest else { return nil }
        return SegmentIndex.Segment(
            file: file, firstSequence: first.sequence, lastSequence: last.sequence, earliest: earliest,
            latest: latest,
            firstCommit: first.timestamp, lastCommit: last.timestamp,
            sampleCount: commits.reduce(0) { $0 + $1.samples.count },
            byteSize: byteSize, partition: partition, nextChange: last.firstChange + Int64(last.samples.count)
        )
    }
}
