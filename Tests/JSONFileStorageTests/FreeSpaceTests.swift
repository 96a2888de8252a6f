import DataStoreCore
import Foundation
import JSONFileStorage
import StoreTestSupport
import Testing

@testable import DataStoreKit

/// The journal's free space (format 3): durable saves write into zeros written ahead, so the journal's size,
/// and the metadata an fdatasync flushes, stays the same; readers learn of new records from the lock file's
/// change count instead of the size.
@Suite struct FreeSpaceTests {
    func size(_ url: URL) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
    }

    @Test func durableSavesWriteIntoFreeSpaceWithoutGrowingTheJournal() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try openMemoStore(directory.url)
        try saveMemo("m0", to: store)
        let preallocated = try size(directory.journal)
        #expect(preallocated > (try recordBytes(of: directory.journal).count) + 1_000_000)
        let recordsBefore = try recordBytes(of: directory.journal).count
        for index in 1..<20 { try saveMemo("m\(index)", to: store) }
        #expect(try size(directory.journal) == preallocated)
        #expect(try recordBytes(of: directory.journal).count > recordsBefore)
        #expect(try openMemoStore(directory.url, readOnly: true).modelCount() == 20)
        // A relaxed store writes no free space: it has no fdatasync to spare.
        let relaxed = try TemporaryDirectory()
        defer { relaxed.remove() }
        try saveMemo("r", to: try openMemoStore(relaxed.url, durability: .relaxed))
        #expect(try size(relaxed.journal) == (try recordBytes(of: relaxed.journal).count))
    }

    @Test func aReaderAnswersFromMemoryUntilAWriterCountsAChangeAndThenReadsOnlyTheNewRecords() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let writer = try openMemoStore(directory.url)
        try saveMemo("m0", to: writer)
        let reader = try openMemoStore(directory.url, readOnly: true)
        #expect(try reader.modelCount() == 1)
        let settled = reader.statistics
        for _ in 0..<5 { #expect(try reader.modelCount() == 1) }
        #expect(reader.statistics.bytesRead == settled.bytesRead)
        #expect(reader.statistics.incrementalRefreshes == settled.incrementalRefreshes)

        try saveMemo("m1", to: writer, author: String(repeating: "x", count: 100))
        #expect(try reader.modelCount() == 2)
        #expect(reader.statistics.incrementalRefreshes == settled.incrementalRefreshes + 1)
        // The new record, in one chunk: never the megabyte of free space after it.
        #expect(reader.statistics.bytesRead - settled.bytesRead <= 16 << 10)
        #expect(reader.statistics.fullReloads == settled.fullReloads)
    }

    @Test func aTornWriteIntoFreeSpaceIsCutBackByTheNextWriter() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try openMemoStore(directory.url)
        for index in 0..<3 { try saveMemo("m\(index)", to: store) }
        let records = try recordBytes(of: directory.journal)
        let line = try #require(records.split(separator: UInt8(ascii: "\n")).last)
        // A crash in the middle of writing a fourth record: its first bytes, then the zeros that were there.
        let handle = try FileHandle(forWritingTo: directory.journal)
        try handle.seek(toOffset: UInt64(records.count))
        try handle.write(contentsOf: Data(line.prefix(line.count / 2)))
        try handle.close()

        let reader = try openMemoStore(directory.url, readOnly: true)
        #expect(try reader.modelCount() == 3)
        let writer = try openMemoStore(directory.url)
        #expect(try writer.modelCount() == 3)
        #expect(try recordBytes(of: directory.journal) == records)
        try saveMemo("m3", to: writer)
        #expect(try openMemoStore(directory.url).modelCount() == 4)
    }

    @Test func aWholeRecordAfterAHoleIsDamageAndNothingIsWritten() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try openMemoStore(directory.url)
        for index in 0..<4 { try saveMemo("m\(index)", to: store) }
        var bytes = try Data(contentsOf: directory.journal)
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        // The third record's bytes lost (zeros, as a page that never reached the disk); the fourth is whole.
        let third = lines[0..<3].reduce(0) { $0 + $1.count + 1 }
        bytes.replaceSubrange(third..<(third + lines[3].count + 1), with: Data(count: lines[3].count + 1))
        try bytes.write(to: directory.journal)
        let before = try fingerprint(directory.url)
        for readOnly in [true, false] {
            #expect {
                try openMemoStore(directory.url, readOnly: readOnly)
            } throws: { error in
                (error as? DataStoreError)?.code == .corruptStoreFile
                    && (error as? DataStoreError)?.offset == Int64(third)
            }
        }
        #expect(try fingerprint(directory.url) == before)
    }

    @Test func aFormatTwoJournalGetsNoFreeSpaceUntilACheckpointRewritesIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try saveMemo("m0", to: try openMemoStore(directory.url))
        // The same journal as a format 2 library writes it: header format 2, no free space.
        let records = try recordBytes(of: directory.journal)
        let newline = try #require(records.firstIndex(of: UInt8(ascii: "\n")))
        let header = try #require(
            RecordFraming.parse(records.prefix(through: newline), startingAt: 0, path: "j").records.first)
        let older = String(decoding: header.payload, as: UTF8.self).replacingOccurrences(
            of: #""format":3"#, with: #""format":2"#)
        #expect(older.contains(#""format":2"#))
        try (RecordFraming.frame(Data(older.utf8)) + records[(newline + 1)...]).write(to: directory.journal)

        let store = try openMemoStore(directory.url)
        try saveMemo("m1", to: store)
        // Appended as before: a format 2 reader still finds the size where the records end.
        #expect(try size(directory.journal) == (try recordBytes(of: directory.journal).count))
        #expect(try JSONFileDataStore.describe(directory: directory.url).format == 2)
        // `datastore info` reports the format the files are in, not the library's.
        #expect(try store.inspect().formatVersion == 2)
        try store.compact()
        #expect(try JSONFileDataStore.describe(directory: directory.url).format == 3)
        #expect(try store.inspect().formatVersion == 3)
        try saveMemo("m2", to: store)
        #expect(try size(directory.journal) > (try recordBytes(of: directory.journal).count))
        #expect(try openMemoStore(directory.url, readOnly: true).modelCount() == 3)
    }
    /// A disk with room for a save's records but not for the free space after them: the save is written
    /// without free space rather than rejected. When the records do not fit either, the save fails with
    /// `ENOSPC` and nothing of it is written.
    @Test func aDiskTooFullForTheFreeSpaceStillTakesTheRecords() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try openMemoStore(directory.url)
        let fragment = directory.url.lastPathComponent
        defer { FaultInjection.clear(pathContaining: fragment) }

        // The first save reaches the end of the new journal; its write with free space finds the disk full.
        FaultInjection.inject(.write, pathContaining: fragment, errno: ENOSPC, count: 1)
        try saveMemo("m0", to: store)
        #expect(try size(directory.journal) == (try recordBytes(of: directory.journal).count))
        #expect(try openMemoStore(directory.url, readOnly: true).modelCount() == 1)
        // With room again, the next save that reaches the end writes free space.
        try saveMemo("m1", to: store)
        #expect(try size(directory.journal) > (try recordBytes(of: directory.journal).count))

        // A checkpoint's new journal has no free space; neither write of the next save fits.
        try store.compact()
        let before = try Data(contentsOf: directory.journal)
        FaultInjection.inject(.write, pathContaining: fragment, errno: ENOSPC, count: 2)
        #expect {
            try saveMemo("rejected", to: store)
        } throws: { error in
            ((error as? DataStoreError)?.underlyingError as? POSIXError)?.code == .ENOSPC
        }
        #expect(try Data(contentsOf: directory.journal) == before)
        #expect(try openMemoStore(directory.url, readOnly: true).modelCount() == 2)
        try saveMemo("accepted", to: store)
        #expect(try openMemoStore(directory.url, readOnly: true).modelCount() == 3)
    }
}
