import DataStoreCore
import Foundation
import JSONFileStorage
import StoreTestSupport
import Testing

@Suite struct RecoveryTests {
    @Test func aTornTailIsCutBackToTheLastWholeRecord() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try openMemoStore(directory.url)
        for index in 0..<5 { try saveMemo("m\(index)", to: store) }
        let whole = try recordBytes(of: directory.journal)

        // Only an incomplete last line is a torn tail: a complete line that fails its checksum is damage
        // (see DamageTests).
        for tail in [#"{"crc":"0000"#, #"{"crc":"deadbeef","record":{"type":"transaction"}}"#, "garbage"] {
            let handle = try FileHandle(forWritingTo: directory.journal)
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(tail.utf8))
            try handle.close()

            // A read-only opener ignores the tail and never writes.
            let before = try fingerprint(directory.url)
            let reader = try openMemoStore(directory.url, readOnly: true)
            #expect(try reader.fetchHistory(.init()).count == 5)
            #expect(try fingerprint(directory.url) == before)

            // The next writer cuts it off, and every committed transaction is still there.
            let writer = try openMemoStore(directory.url)
            #expect(try recordBytes(of: directory.journal) == whole)
            #expect(try writer.fetchHistory(.init()).map(\.token.sequence) == [1, 2, 3, 4, 5])
            #expect(try writer.modelCount() == 5)
        }
    }

    @Test func aFlippedByteInTheMiddleThrowsAndLeavesTheFileUntouched() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try openMemoStore(directory.url)
        for index in 0..<5 { try saveMemo("m\(index)", body: "body \(index)", to: store) }
        var bytes = try recordBytes(of: directory.journal)
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        // Flip one byte inside the third transaction record (line 4, after the header).
        let lineStart = lines[0..<3].reduce(0) { $0 + $1.count + 1 }
        let target = lineStart + 40
        bytes[target] ^= 0x20
        try bytes.write(to: directory.journal)
        let before = try fingerprint(directory.url)

        #expect {
            try openMemoStore(directory.url)
        } throws: { error in
            guard let error = error as? DataStoreError, error.code == .corruptStoreFile else { return false }
            return error.path?.hasSuffix("journal.jsonl") == true && error.offset == Int64(lineStart)
        }
        #expect(throws: DataStoreError.self) { try openMemoStore(directory.url, readOnly: true) }
        #expect(try fingerprint(directory.url) == before)
        // An instance that already read those bytes keeps its state: its cheap refresh compares sizes, so
        // damage to bytes it has read is found by the next open, as above.
        _ = store
    }

    @Test func aJournalFromANewerFormatIsRefusedUnchanged() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try openMemoStore(directory.url)
        let header =
            #"{"body":{"created":0,"epoch":"5C1B1D0E-6B5A-4E0F-9C11-6D2F3B7A8E90","format":4,"store":"memos"},"type":"header"}"#
        try framed(header).write(to: directory.journal)
        let before = try fingerprint(directory.url)
        #expect {
            try openMemoStore(directory.url)
        } throws: { error in
            guard let error = error as? DataStoreError, error.code == .unsupportedFormatVersion else {
                return false
            }
            return error.formatVersion == 4 && error.supportedFormatVersion == 3
        }
        #expect(try fingerprint(directory.url) == before)
    }

    @Test func aDirectoryHoldingAnotherStoreIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try openMemoStore(directory.url)
        #expect(throws: DataStoreError.self) {
            try JSONFileDataStore(.init(name: "other", schema: Schema([Memo.self]), directory: directory.url))
        }
    }

    @Test func aStaleLockFileFromAKilledProcessIsHarmless() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Data("left by a killed process".utf8).write(to: directory.url.appendingPathComponent("lock"))
        let store = try openMemoStore(directory.url)
        try saveMemo("a", to: store)
        #expect(try store.modelCount() == 1)
    }

    @Test func anUnwritableDirectoryGetsATypedError() throws {
        #expect {
            try openMemoStore(URL(fileURLWithPath: "/proc/datastore-cannot-exist/store"))
        } throws: { error in
            if case DataStoreError.storageUnavailable = error { return true }
            return false
        }
        #expect(throws: DataStoreError.self) {
            try openMemoStore(URL(fileURLWithPath: "/tmp/datastore-missing-\(UUID())"), readOnly: true)
        }
    }

    func framed(_ json: String) -> Data {
        var line = Data(#"{"crc":""#.utf8)
        let crc = crc32(Data(json.utf8))
        line.append(Data(String(format: "%08x", crc).utf8))
        line.append(Data(#"","record":"#.utf8))
        line.append(Data(json.utf8))
        line.append(Data("}\n".utf8))
        return line
    }

    /// An independent CRC-32 (bitwise, not table-driven), so the test does not trust the code under test.
    func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }
}

/// Stores written by earlier versions of the package keep opening: the file format is versioned, and the
/// switch to the generic history types did not change it.
@Suite struct FormatCompatibilityTests {
    @Test func aFormatOneStoreOpensWithItsHistoryAndTokens() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("StoreFixtures/trips-format1")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FileManager.default.removeItem(at: directory.url)
        try FileManager.default.copyItem(at: fixture, to: directory.url)
        let before = try recordBytes(of: directory.journal)

        let store = try JSONFileDataStore(.init(name: "trips", directory: directory.url, isReadOnly: true))
        let history = try store.fetchHistory(.init())
        #expect(history.map(\.token.sequence) == [1, 2])
        #expect(history.map(\.author) == ["app", "widget"])
        #expect(history[1].changes.map(\.kind) == [.update, .delete])
        #expect(history[0].changes.count == 6 && history[0].changes.allSatisfy { $0.kind == .insert })
        #expect(try store.modelCountsByEntity() == ["Trip": 3, "LivingAccommodation": 2])
        // A token saved by an app in the shared JSON form decodes and seeks.
        let json =
            #"{"v":1,"kind":"jsonfile","store":"trips","epoch":"DCEDCCBC-0A82-4A65-B2C3-B20BF2B68871","seq":1}"#
        let token = try HistoryTokenCoding.decode(JSONFileHistoryToken.self, fromJSON: Data(json.utf8))
        #expect(
            try store.fetchHistory(HistoryDescriptor(predicate: #Predicate { $0.token > token })).count == 1)
        #expect(try recordBytes(of: directory.journal) == before)
    }
}
