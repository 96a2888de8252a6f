import DataStoreCore
import Foundation

/// The segment being written, held parsed in memory: its commits and where the next one goes.
struct ActiveSegment: Sendable {
    var file: String
    var partition: Date
    var commits: [SegmentRecord.Commit] = []
    /// The offset just past the last whole record.
    var end: Int64

    var earliest: Date? { commits.map(\.earliest).min() }
    var latest: Date? { commits.map(\.latest).max() }

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
