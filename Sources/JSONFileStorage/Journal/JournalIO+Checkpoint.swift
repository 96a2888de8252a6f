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
    static func checkpoint(
        _ state: inout ReplayedState, files: StoreDirectory, journalEnd: Int64,
        reusing encodings: RowEncodings? = nil
    ) throws -> Int {
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
        // The new segment is written (and synchronised) on another thread while the snapshot, which lists it,
        // is encoded on this one; the snapshot replaces the old one only once the segment is on disk.
        let segment = segmentFile(fresh, files: files)
        if let (entry, _) = segment { segments.append(entry) }
        let (written, encoded) = ParallelChunks.both(
            {
                Result {
                    guard let (entry, contents) = segment else { return }
                    try AtomicFileWriter.replace(files.file(entry.name), with: contents)
                }
            },
            { [segments] in Result { try snapshotFile(state, segments: segments, reusing: encodings) } })
        try written.get()
        let (snapshot, copied) = try encoded.get()
        try AtomicFileWriter.replace(files.snapshot, with: snapshot)
        state.snapshotBytes = Int64(snapshot.count)
        try createJournal(
            files: files, name: state.storeIdentifier, epoch: state.epoch, schema: state.recorded,
            schemaGeneration: state.schemaGeneration)
        state.history.segments = segments
        state.history.inline = []
        state.history.journal = HistoryIndex.File(name: StoreDirectory.journalName)
        removeSegments(except: Set(segments.map(\.name)), files: files)
        return copied
    }

    /// The snapshot file's bytes: the `snapshot` record, then the rows in `rows` records of a thousand.
    static func snapshotFile(_ state: ReplayedState, segments: [HistoryIndex.File]) throws -> Data {
        try snapshotFile(state, segments: segments, reusing: nil).file
    }

    /// ``snapshotFile(_:segments:)``, copying the values of the rows `encodings` holds; returns how many rows
    /// it copied too.
    static func snapshotFile(
        _ state: ReplayedState, segments: [HistoryIndex.File], reusing encodings: RowEncodings?
    ) throws -> (file: Data, copied: Int) {
        var record = state.snapshotRecord(segments: segments)
        let rows = record.rows
        record.rows = []
        var file = try encode(.snapshot(record))
        // The rows records are encoded and framed on all cores: the same bytes, in the same order, as one
        // after the other.
        let starts = Array(stride(from: 0, to: rows.count, by: 1_000))
        let records = ParallelChunks.map(starts.count) { chunk in
            let start = starts[chunk]
            let (record, copied) = TransactionCodec.encode(
                rows: rows[start..<min(start + 1_000, rows.count)], reusing: encodings)
            return (line: RecordFraming.frame(record), copied: copied)
        }
        file.reserveCapacity(file.count + records.reduce(0) { $0 + $1.line.count })
        for record in records { file.append(record.line) }
        return (file, records.reduce(0) { $0 + $1.copied })
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
