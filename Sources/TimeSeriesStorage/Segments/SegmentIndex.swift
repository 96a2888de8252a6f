import DataStoreCore
import DataStoreKit
import Foundation

/// `index.json`: the store's identity and every closed segment's ranges, replaced atomically whenever a
/// segment closes or retention removes segments.
struct SegmentIndex: Codable, Sendable {
    /// What one segment holds.
    struct Segment: Codable, Hashable, Sendable {
        /// The file name inside `segments/`.
        var file: String
        var firstSequence: Int64
        var lastSequence: Int64
        /// The earliest and latest sample time.
        var earliest: Date
        var latest: Date
        /// The first and latest commit time.
        var firstCommit: Date
        var lastCommit: Date
        var sampleCount: Int
        var byteSize: Int64
        /// The start of the segment's time partition.
        var partition: Date
        /// The change identifier after the segment's last change.
        var nextChange: Int64
    }

    /// The segment being written: its file and partition. Creating one rewrites the index first, so a
    /// segment file the index does not name holds no commits.
    struct Active: Codable, Hashable, Sendable {
        var file: String
        var partition: Date
        var firstSequence: Int64
    }

    var format: Int
    var store: String
    var epoch: UUID
    /// Tokens below this sequence are expired: the newest sequence retention or `deleteHistory` removed.
    var oldestValid: Int64
    /// The closed segments, oldest first.
    var segments: [Segment]
    var active: Active?
    /// The counters as of this index, for when every segment has been removed.
    var lastSequence: Int64
    var nextChange: Int64
    var lastCommit: Date
    /// The schema the store's samples are read in (absent in stores written before schemas were recorded).
    var schema: Schema?
    /// The lightweight migrations, oldest first: samples are never rewritten, so each is applied when samples of
    /// the commits it covers are read.
    var migrations: [Migration]?

    /// A schema change: commits up to `throughSequence` were written before it and are read through `upgrade`.
    struct Migration: Codable, Hashable, Sendable {
        var throughSequence: Int64
        var upgrade: SchemaUpgrade
    }

    /// A commit read as the current schema lays out its samples.
    func upgraded(_ commit: SegmentRecord.Commit) -> SegmentRecord.Commit {
        guard let migrations, migrations.contains(where: { $0.throughSequence >= commit.sequence }) else {
            return commit
        }
        var commit = commit
        for migration in migrations where migration.throughSequence >= commit.sequence {
            for index in commit.samples.indices {
                migration.upgrade.upgrade(&commit.samples[index].values, entity: commit.samples[index].entity)
            }
        }
        return commit
    }

    static func empty(store: String, epoch: UUID) -> SegmentIndex {
        SegmentIndex(
            format: 1, store: store, epoch: epoch, oldestValid: 0, segments: [], active: nil, lastSequence: 0,
            nextChange: 1, lastCommit: .distantPast)
    }
}
