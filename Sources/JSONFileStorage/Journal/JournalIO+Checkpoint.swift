import DataStoreCore
import DataStoreKit
import Foundation

extension JournalIO {
    /// Writes a checkpoint and starts an empty journal, reclaiming the space of forgotten history. In order,
    /// each step crash-safe (temporary file, fsync, rename, fsync of the directory):
    ///
    /// 1. the journal's retained transactions (and a format-1 snapshot's) become a new history segment;
    ///    segments holding forgotten transactions are rewritten without them, or dropped when none is left;
    /// 2. `snapshot.json` is replaced: the models and the list of segments with their sparse indexes;
    /// 3. the journal is replaced by one holding only a header;
    /// 4. segment files the new snapshot does not list are removed.
    ///
    /// A crash after 1 leaves unlisted segments (removed by the next checkpoint); after 2, a journal whose
    /// transactions the snapshot already holds (loading skips them). A failure (a full disk) throws with
    /// `state` unchanged: the store goes on from the journal.
    static func checkpoint(_ state: inout ReplayedState, files: StoreDirectory, journalEnd: Int64) throws {
        let index = state.history
        var segments: [HistoryIndex.File] = []
        for segment in index.segments where segment.last > index.forgottenThrough {
            let holdsForgotten =
                segment.first <= index.forgottenThrough
                || index.forgotten.contains { $0 >= segment.first && $0 <= segment.last }
            guard holdsForgotten else {
                segments.append(segment)
                continue
            }
            var lines: [(TransactionCodec.Stamp, Data)] = []
            try SegmentReader(files: files).forEachLine(of: segment) { body, line in
                if index.isRetained(body.sequence) { lines.append((body, line)) }
            }
            if let rewritten = try writeSegment(lines, files: files) { segments.append(rewritten) }
        }
        // The journal's transactions (and a format-1 snapshot's) go to one new segment.
        var fresh: [(TransactionCodec.Stamp, Data)] = []
        for body in index.inline where index.isRetained(body.sequence) {
            fresh.append(
                (.init(sequence: body.sequence, timestamp: body.timestamp), try encode(.transaction(body))))
        }
        // Only the transactions the journal itself contributed: after a crash between steps 2 and 3 it still
        // holds ones a listed segment has (loading skipped them), which must not be copied again.
        let journalFirst = index.journal.isEmpty ? Int64.max : index.journal.first
        try SegmentReader(files: files).forEachJournalTransaction(through: journalEnd) { body, line in
            if body.sequence >= journalFirst && index.isRetained(body.sequence) { fresh.append((body, line)) }
        }
        // The new segment is written on this thread, then synchronised (and renamed into place) on another,
        // which mostly waits for the device, while the snapshot that lists it is encoded here; the snapshot
        // replaces the old one only once the segment is on disk. The encoding takes every core but one
        // (`ParallelChunks.threadsBesideTheApp`): the instance's readers go on during a checkpoint.
        let segment = segmentFile(fresh, files: files)
        if let (entry, _) = segment { segments.append(entry) }
        let pending = try segment.map { entry, contents in
            try AtomicFileWriter.written(files.file(entry.name), contents)
        }
        let (written, encoded) = ParallelChunks.both(
            { Result { try pending?.complete() } },
            { [segments] in
                Result {
                    try snapshotFile(state, segments: segments, threads: ParallelChunks.threadsBesideTheApp)
                }
            })
        try written.get()
        let snapshot = try encoded.get()
        try AtomicFileWriter.replace(files.snapshot, with: snapshot)
        state.snapshotBytes = Int64(snapshot.count)
        try createJournal(
            files: files, name: state.storeIdentifier, epoch: state.epoch, schema: state.recorded,
            schemaGeneration: state.schemaGeneration)
        state.history.segments = segments
        state.history.inline = []
        state.history.journal = HistoryIndex.File(name: StoreDirectory.journalName)
        removeSegments(except: Set(segments.map(\.name)), files: files)
    }

    /// The snapshot file's bytes: the `snapshot` record, then the rows in `rows` records of a thousand, encoded
    /// and framed on `threads` threads at most, each taking a run of records: the same bytes, in the same
    /// order, as one after the other.
    static func snapshotFile(_ state: ReplayedState, segments: [HistoryIndex.File], threads: Int) throws
        -> Data
    {
        var record = state.snapshotRecord(segments: segments)
        let rows = record.rows
        record.rows = []
        var file = try encode(.snapshot(record))
        let starts = Array(stride(from: 0, to: rows.count, by: 1_000))
        let shares = ParallelChunks.ranges(of: starts.indices, minimumChunkLength: 1, cores: threads)
        let parts = ParallelChunks.map(shares.count) { share in
            var part = Data()
            for start in starts[shares[share]] {
                part.append(
                    RecordFraming.frame(
                        TransactionCodec.encode(rows: rows[start..<min(start + 1_000, rows.count)])))
            }
            return part
        }
        file.reserveCapacity(file.count + parts.reduce(0) { $0 + $1.count })
        for part in parts { file.append(part) }
        return file
    }

    /// Writes `lines` as a new segment and returns its entry; `nil` (and no file) when there are none.
    private static func writeSegment(
        _ lines: [(TransactionCodec.Stamp, Data)], files: StoreDirectory
    )
        throws -> HistoryIndex.File?
    {
        guard let (segment, contents) = segmentFile(lines, files: files) else { return nil }
        try AtomicFileWriter.replace(files.file(segment.name), with: contents)
        return segment
    }

    /// The entry and the bytes of a new segment holding `lines`; `nil` when there are none.
    private static func segmentFile(
        _ lines: [(TransactionCodec.Stamp, Data)], files: StoreDirectory
    ) -> (HistoryIndex.File, Data)? {
        guard let first = lines.first?.0.sequence, let last = lines.last?.0.sequence else { return nil }
        var segment = HistoryIndex.File(name: files.newSegmentName(first: first, last: last))
        var contents = Data(capacity: lines.reduce(0) { $0 + $1.1.count })
        for (body, line) in lines {
            segment.append(sequence: body.sequence, timestamp: body.timestamp, offset: Int64(contents.count))
            contents.append(line)
        }
        segment.end = Int64(contents.count)
        return (segment, contents)
    }

    /// Removes the segment files not in `kept`: superseded ones and those a crashed checkpoint or an erase
    /// left. Best effort: a file that stays is only space, never read (nothing lists it).
    static func removeSegments(except kept: Set<String>, files: StoreDirectory) {
        let doomed = files.segmentNames().filter { !kept.contains($0) }
        for name in doomed { AtomicFileWriter.unlinkWithoutSynchronizing(files.file(name)) }
        if !doomed.isEmpty { try? AtomicFileWriter.synchronizeDirectory(containing: files.journal) }
    }
}
