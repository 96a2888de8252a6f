import DataStoreCore
import DataStoreKit
import Foundation

/// Reading and writing the journal and snapshot files. Every function expects the caller to hold the store's
/// file lock: exclusive to write or repair, at least shared to read.
enum JournalIO {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static func encode(_ record: JournalRecord) throws(DataStoreError) -> Data {
        if case .transaction(let body) = record { return RecordFraming.frame(TransactionCodec.encode(body)) }
        if case .rows(let body) = record {
            return RecordFraming.frame(TransactionCodec.encode(rows: body.rows[...]))
        }
        do {
            return RecordFraming.frame(try encoder().encode(record))
        } catch {
            throw .invalidSave(store: "?", reason: "a value could not be encoded as JSON: \(error)")
        }
    }

    /// Where the append that wrote a journal record began, when the record says (a transaction record of a
    /// group commit that appended several records in one write); read only at a hole in the journal.
    static let writeStart: RecordFraming.WriteStart = { payload in
        guard
            case .transaction(let body)? = try? decode(
                RecordFraming.Record(offset: 0, payload: payload), path: "")
        else { return nil }
        return body.write
    }

    static func decode(_ record: RecordFraming.Record, path: String) throws(DataStoreError) -> JournalRecord {
        try reading(record, path: path, TransactionCodec.decode)
    }

    /// The stamp of a transaction record, its changes not decoded (see `TransactionCodec.stamp(_:)`); `nil`
    /// for a record of another kind.
    static func stamp(_ record: RecordFraming.Record, path: String) throws(DataStoreError) -> TransactionCodec
        .Stamp?
    {
        try reading(record, path: path, TransactionCodec.stamp)
    }

    /// What `read` makes of the record's payload; a failure is the file's damage at the record's offset.
    private static func reading<T>(
        _ record: RecordFraming.Record, path: String, _ read: (Data) throws -> T
    ) throws(DataStoreError) -> T {
        do {
            return try read(record.payload)
        } catch {
            throw .corruptStoreFile(
                path: path, offset: record.offset, reason: "the record does not decode: \(error)")
        }
    }

    /// Writes a journal holding only a header, atomically replacing any journal there. The header records the
    /// schema the store's rows are in.
    static func createJournal(
        files: StoreDirectory, name: String, epoch: UUID, schema: Schema?, schemaGeneration: Int
    ) throws(DataStoreError) {
        let header = JournalRecord.header(
            .init(
                format: ReplayedState.formatVersion, store: name, epoch: epoch, created: Date(),
                schema: schema,
                schemaGeneration: schema == nil ? nil : schemaGeneration))
        try AtomicFileWriter.replace(files.journal, with: try encode(header))
    }

    /// What a full load produced.
    struct Loaded {
        var state: ReplayedState
        var end: Int64
        /// The bytes read: the snapshot and the journal, never the history segments.
        var bytesRead: Int64
        /// The journal read, held open.
        var pin: PinnedFile
        /// The journal header's format version: from 3 on, free space may follow the records (see
        /// ``preallocation``), and readers learn of new records from the lock file's change count.
        var format: Int
    }

    /// The free space a durable save writes after its records when they reach the end of the journal (see
    /// `RecordFraming.Ending.preallocated`): the next saves write into it, so their `fdatasync` has no file size
    /// to flush. 1 MiB: about 500 saves of ten changes.
    static let preallocation = 1 << 20

    /// The free space to write after `recordBytes` of new records: ``preallocation``, or less under a byte
    /// bound on history (`HistoryRetention.maximumBytes`), whose files must stay under it with their free space.
    /// `room` is what the bound leaves before the records (`nil`: no bound).
    static func freeSpace(after recordBytes: Int, room: Int64?) -> Int {
        guard let room else { return preallocation }
        return Int(max(0, min(Int64(preallocation), room - Int64(recordBytes))))
    }

    /// The first journal format with free space and change counts.
    static let preallocatedFormat = 3

    /// Reads the snapshot (if any) and the whole journal into fresh state. With `repairTornTail`, a torn
    /// last record is cut off the journal; otherwise it is ignored.
    static func load(files: StoreDirectory, configuration: JSONFileStoreConfiguration, repairTornTail: Bool)
        throws
        -> Loaded
    {
        let journal = try StoreFile(
            path: files.journal, mode: repairTornTail ? .readWrite(create: false) : .readOnly)
        // All of it, free space included: whatever follows the last record decides whether it is damage.
        let bytes = try journal.readToEnd(from: 0)
        var bytesRead = Int64(bytes.count)
        let parsed = try RecordFraming.parse(
            bytes, startingAt: 0, path: files.journal, ending: .preallocated, writeStart: writeStart)
        guard let first = parsed.records.first,
            case .header(let header) = try decode(first, path: files.journal)
        else {
            throw DataStoreError.corruptStoreFile(
                path: files.journal, offset: 0, reason: "the journal has no header record")
        }
        try check(
            format: header.format, store: header.store, path: files.journal, configuration: configuration)
        var state = ReplayedState(
            storeIdentifier: configuration.name, schema: configuration.schema, epoch: header.epoch)
        state.history.recentChangeLimit = configuration.recentHistoryChanges
        state.adopt(header.schema, generation: header.schemaGeneration)
        if let (snapshot, size) = try readSnapshot(files: files, configuration: configuration) {
            bytesRead += size
            if snapshot.epoch == header.epoch {
                try checkSegments(snapshot.segments ?? [], files: files)
                state.apply(snapshot)
                state.snapshotBytes = size
            }
        }
        for record in parsed.records.dropFirst() {
            try state.apply(
                try decode(record, path: files.journal), offset: record.offset, path: files.journal)
        }
        if parsed.hasTornTail && repairTornTail {
            try journal.truncate(to: parsed.endOfValidData)
            try journal.synchronize()
        }
        return Loaded(
            state: state, end: parsed.endOfValidData, bytesRead: bytesRead, pin: try PinnedFile(journal),
            format: header.format)
    }

    /// Applies the records appended since `offset`, reading them in chunks that stop at free space, and returns
    /// the new end of valid data and the bytes read.
    static func catchUp(
        _ state: inout ReplayedState, files: StoreDirectory, from offset: Int64, repairTornTail: Bool
    )
        throws -> (end: Int64, bytesRead: Int64)
    {
        let journal = try StoreFile(
            path: files.journal, mode: repairTornTail ? .readWrite(create: false) : .readOnly)
        var position = offset
        var chunk = 16 << 10
        var bytesRead: Int64 = 0
        while true {
            let bytes = try journal.read(from: position, count: chunk)
            bytesRead += Int64(bytes.count)
            let parsed = try RecordFraming.parse(
                bytes, startingAt: position, path: files.journal, ending: .preallocated,
                writeStart: writeStart)
            for record in parsed.records {
                try state.apply(
                    try decode(record, path: files.journal), offset: record.offset, path: files.journal)
            }
            if !parsed.reachedFreeSpace && bytes.count == chunk {
                // More may follow, perhaps the rest of a record the chunk cut: read on from the last whole one,
                // in a larger chunk if this one held none.
                if parsed.records.isEmpty { chunk *= 4 }
                position = parsed.endOfValidData
                continue
            }
            if parsed.hasTornTail && repairTornTail {
                // Before cutting back, all of what follows: a whole record past the chunk makes it damage.
                _ = try RecordFraming.parse(
                    try journal.readToEnd(from: parsed.endOfValidData), startingAt: parsed.endOfValidData,
                    path: files.journal, ending: .preallocated, writeStart: writeStart)
                try journal.truncate(to: parsed.endOfValidData)
                try journal.synchronize()
            }
            return (parsed.endOfValidData, bytesRead)
        }
    }

    /// Appends one record at `offset` (the end of valid data) and returns its length. If the write or fsync
    /// fails, the journal is cut back to `offset` so that no other process can see the record (see
    /// `StoreFile.appendRecord(_:at:synchronize:)` for when that fails too).
    static func append(_ record: JournalRecord, files: StoreDirectory, at offset: Int64, synchronize: Bool)
        throws -> Int64
    {
        let line = try encode(record)
        let journal = try StoreFile(path: files.journal, mode: .readWrite(create: false))
        try journal.appendRecord(line, at: offset, synchronize: synchronize)
        return Int64(line.count)
    }

    /// The snapshot and its size in bytes, or `nil` when there is none.
    static func readSnapshot(files: StoreDirectory, configuration: JSONFileStoreConfiguration) throws
        -> (JournalRecord.SnapshotRecord, Int64)?
    {
        guard StoreFile.exists(files.snapshot) else { return nil }
        let file = try StoreFile(path: files.snapshot, mode: .readOnly)
        let bytes = try file.readToEnd(from: 0)
        let parsed = try RecordFraming.parse(bytes, startingAt: 0, path: files.snapshot)
        // Format 1: one `snapshot` record. Format 2: a `snapshot` record, then its rows in `rows` records.
        guard !parsed.hasTornTail, let first = parsed.records.first,
            case .snapshot(var snapshot) = try decode(first, path: files.snapshot)
        else {
            throw DataStoreError.corruptStoreFile(
                path: files.snapshot, offset: parsed.endOfValidData,
                reason: "the snapshot is not one whole snapshot record and its rows")
        }
        for record in parsed.records.dropFirst() {
            guard case .rows(let body) = try decode(record, path: files.snapshot) else {
                throw DataStoreError.corruptStoreFile(
                    path: files.snapshot, offset: record.offset, reason: "a snapshot record other than rows")
            }
            snapshot.rows += body.rows
        }
        try check(
            format: snapshot.format, store: snapshot.store, path: files.snapshot, configuration: configuration
        )
        return (snapshot, Int64(bytes.count))
    }

    /// Throws unless every segment the snapshot lists is there, at least as long as listed: one `stat` each,
    /// so that a lost history file is reported on opening, not at the first fetch that needs it.
    static func checkSegments(_ segments: [HistoryIndex.File], files: StoreDirectory) throws(DataStoreError) {
        for segment in segments {
            let path = files.file(segment.name)
            guard let status = StoreFile.status(atPath: path) else {
                throw .corruptStoreFile(
                    path: path, offset: 0, reason: "a history file the snapshot lists is missing")
            }
            guard status.size >= segment.end else {
                throw .corruptStoreFile(
                    path: path, offset: status.size,
                    reason:
                        "the history file is shorter (\(status.size) bytes) than the snapshot lists (\(segment.end))"
                )
            }
        }
    }

    static func check(format: Int, store: String, path: String, configuration: JSONFileStoreConfiguration)
        throws(DataStoreError)
    {
        guard format <= ReplayedState.formatVersion else {
            throw .unsupportedFormatVersion(path: path, found: format, supported: ReplayedState.formatVersion)
        }
        guard store == configuration.name else {
            throw .invalidConfiguration(
                reason: "\(path) belongs to store '\(store)', not '\(configuration.name)'")
        }
    }
}
