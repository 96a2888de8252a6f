import DataStoreCore
import Foundation
import Testing

@_spi(DataStoreInternals) @testable import DataStoreKit

/// Free space after a file's records (`RecordFraming.Ending.preallocated`): zeros end the records, a write cut
/// short in them is a torn tail, and a whole record after a hole is damage, never dropped.
@Suite struct FreeSpaceFramingTests {
    func record(_ name: String) -> Data {
        RecordFraming.frame(Data(#"{"name":"\#(name)"}"#.utf8))
    }

    func names(_ parsed: RecordFraming.ParseResult) -> [String] {
        parsed.records.map { String(decoding: $0.payload, as: UTF8.self) }
    }

    @Test func zerosAfterTheLastRecordAreFreeSpace() throws {
        let records = record("a") + record("b")
        let bytes = records + Data(count: 100)
        let parsed = try RecordFraming.parse(bytes, startingAt: 0, path: "f", ending: .preallocated)
        #expect(names(parsed) == [#"{"name":"a"}"#, #"{"name":"b"}"#])
        #expect(parsed.endOfValidData == Int64(records.count))
        #expect(!parsed.hasTornTail)
        #expect(parsed.reachedFreeSpace)
        // Read as an appended file, the same zeros are an incomplete last line.
        #expect(try RecordFraming.parse(bytes, startingAt: 0, path: "f").hasTornTail)
    }

    @Test func theScanForWrittenBytesFindsTheFirstOneAcrossPages() {
        let size = 3 * 4096 + 100
        for position in [0, 1, 4095, 4096, 4097, 2 * 4096 + 7, size - 1] {
            var bytes = [UInt8](repeating: 0, count: size)
            bytes[position] = 7
            if position + 1 < size { bytes[position + 1] = 9 }
            #expect(bytes.withUnsafeBytes { RecordFraming.firstNonZero($0) } == position)
        }
        #expect([UInt8](repeating: 0, count: size).withUnsafeBytes { RecordFraming.firstNonZero($0) } == nil)
        #expect([UInt8]().withUnsafeBytes { RecordFraming.firstNonZero($0) } == nil)
        // A slice not starting at a page's start: the index is the slice's own.
        let tail = [UInt8](repeating: 0, count: 5000) + [1]
        #expect(
            tail.withUnsafeBytes { RecordFraming.firstNonZero(UnsafeRawBufferPointer(rebasing: $0[3...])) }
                == 4997)
    }

    /// The newline search is the one every record of every file read goes through: it must find the first
    /// newline where `firstIndex(of:)` does, in slices too, and none where there is none.
    @Test func theNewlineSearchFindsTheFirstNewline() {
        let size = 5_000
        for positions in [[0], [1], [size - 1], [17, 18], [4095, 4096, 40], [2_000, 3_000]] {
            var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: size)
            for position in positions { bytes[position] = UInt8(ascii: "\n") }
            for start in [0, 1, 18, 100] {
                let expected = bytes[start...].firstIndex(of: UInt8(ascii: "\n")).map { $0 - start }
                let found = bytes.withUnsafeBytes {
                    RecordFraming.firstNewline(UnsafeRawBufferPointer(rebasing: $0[start...]))
                }
                #expect(found == expected, "newlines at \(positions), slice from \(start)")
            }
        }
        #expect([UInt8](repeating: 0, count: 64).withUnsafeBytes { RecordFraming.firstNewline($0) } == nil)
        #expect([UInt8]().withUnsafeBytes { RecordFraming.firstNewline($0) } == nil)
    }

    @Test func aWriteCutShortInFreeSpaceIsATornTail() throws {
        let kept = record("a")
        let bytes = kept + record("b").prefix(12) + Data(count: 64)
        let parsed = try RecordFraming.parse(bytes, startingAt: 0, path: "f", ending: .preallocated)
        #expect(names(parsed) == [#"{"name":"a"}"#])
        #expect(parsed.endOfValidData == Int64(kept.count))
        #expect(parsed.hasTornTail && parsed.reachedFreeSpace)
    }

    @Test func aRecordWithAHoleAndNothingWholeAfterItIsATornTail() throws {
        let kept = record("a")
        var holed = record("b")
        holed.replaceSubrange(5..<15, with: Data(count: 10))  // still ends in its newline
        let parsed = try RecordFraming.parse(
            kept + holed + Data(count: 32), startingAt: 0, path: "f", ending: .preallocated)
        #expect(parsed.endOfValidData == Int64(kept.count))
        #expect(parsed.hasTornTail)
    }

    @Test func aWholeRecordAfterAHoleIsDamage() throws {
        let kept = record("a")
        for hole in [Data(count: record("b").count), Data(count: 3) + record("b").dropFirst(3)] {
            let bytes = kept + hole + record("c") + Data(count: 32)
            #expect {
                try RecordFraming.parse(bytes, startingAt: 0, path: "f", ending: .preallocated)
            } throws: { error in
                (error as? DataStoreError)?.code == .corruptStoreFile
                    && (error as? DataStoreError)?.offset == Int64(kept.count)
            }
        }
    }

    @Test func appendingWritesFreeSpaceOnlyWhenTheRecordsReachTheEnd() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "free-space-\(UUID().uuidString).jsonl"
        ).path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try StoreFile(path: path, mode: .readWrite(create: false))
        try file.appendRecords([record("a")], at: 0, synchronize: true, freeSpace: 4_096)
        let size = try file.status().size
        #expect(size == Int64(record("a").count + 4_096))
        try file.appendRecords(
            [record("b")], at: Int64(record("a").count), synchronize: true, freeSpace: 4_096)
        #expect(try file.status().size == size)  // written into the free space
        let parsed = try RecordFraming.parse(
            try file.readToEnd(from: 0), startingAt: 0, path: path, ending: .preallocated)
        #expect(names(parsed) == [#"{"name":"a"}"#, #"{"name":"b"}"#])

        // A repair keeps the free space out of the side file, and a clean file needs none.
        #expect(try StoreRepair.cutBack(path, ending: .preallocated) == nil)
        let end = Int64(record("a").count + record("b").count)
        try file.write(record("c").prefix(10), at: end)
        let report = try #require(try StoreRepair.cutBack(path, ending: .preallocated))
        defer { try? FileManager.default.removeItem(atPath: report.sideFile) }
        #expect(report.offset == end && report.removedByteCount == 10)
        #expect(try Data(contentsOf: URL(fileURLWithPath: report.sideFile)) == record("c").prefix(10))
        #expect(try file.status().size == end)
    }

    /// In a file that has no free space (a time-series segment), zeros after a torn write are part of what the
    /// repair removes, and its side file keeps them: only `.preallocated` files leave their free space out.
    @Test func aRepairOfAFileWithoutFreeSpaceKeepsEveryByteItRemoves() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "appended-\(UUID().uuidString).jsonl"
        ).path
        let removed = record("b").prefix(10) + Data(count: 20)
        #expect(FileManager.default.createFile(atPath: path, contents: record("a") + removed))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let report = try #require(try StoreRepair.cutBack(path))
        defer { try? FileManager.default.removeItem(atPath: report.sideFile) }
        #expect(report.offset == Int64(record("a").count) && report.removedByteCount == Int64(removed.count))
        #expect(try Data(contentsOf: URL(fileURLWithPath: report.sideFile)) == removed)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == record("a"))
    }

    @Test func releasingTheExclusiveLockCountsAChange() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try FileLock(path: path, readOnly: false)
        let reader = try FileLock(path: path, readOnly: true)
        let before = try #require(reader.changeCount)
        try reader.withLock(.shared, timeout: .seconds(1)) {}
        #expect(reader.changeCount == before)
        try writer.withLock(.exclusive, timeout: .seconds(1)) {
            #expect(reader.changeCount == before)  // counted on release, after the files changed
        }
        #expect(reader.changeCount == before &+ 1)
        // A second opener keeps the count the file holds.
        #expect(try FileLock(path: path, readOnly: false).changeCount == before &+ 1)
    }
}
