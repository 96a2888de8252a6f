import DataStoreCore
import Foundation
import JSONFileStorage
import StoreTestSupport
import Testing

@testable import DataStoreKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Damage that is not a torn tail, failing writes, and leftovers of crashes: nothing acknowledged is lost,
/// nothing rejected becomes visible, and the bytes on disk are left as evidence.
@Suite struct DamageTests {
    /// The offset of line `number` (0 is the header) in the journal.
    func offsetOfLine(_ number: Int, in bytes: Data) -> Int {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        return lines[0..<number].reduce(0) { $0 + $1.count + 1 }
    }

    @Test func aFlippedByteInTheLastCompleteRecordIsDamageNotATornTail() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try openMemoStore(directory.url)
        for index in 0..<5 { try saveMemo("m\(index)", body: "body \(index)", to: store) }
        var bytes = try recordBytes(of: directory.journal)
        let lastLine = offsetOfLine(5, in: bytes)
        bytes[lastLine + 40] ^= 0x20  // the line is still whole and ends in a newline
        try bytes.write(to: directory.journal)
        let before = try fingerprint(directory.url)

        for readOnly in [true, false] {
            #expect {
                try openMemoStore(directory.url, readOnly: readOnly)
            } throws: { error in
                guard let error = error as? DataStoreError, error.code == .corruptStoreFile else {
                    return false
                }
                return error.path?.hasSuffix("journal.jsonl") == true && error.offset == Int64(lastLine)
            }
        }
        #expect(try fingerprint(directory.url) == before)
    }

    @Test func aDamagedSchemaRecordIsDamageAndATornOneLeavesTheOldSchema() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try openMemoStore(directory.url)
        for index in 0..<3 { try saveMemo("m\(index)", to: store) }
        let beforeMigration = try recordBytes(of: directory.journal)
        // A lightweight migration (body dropped) appends one schema record.
        var revised = Schema([Memo.self], version: Schema.Version(2, 0, 0))
        revised.entities[0].attributes.removeAll { $0.name == "body" }
        try store.migrate(to: revised, applying: nil)
        let migrated = try recordBytes(of: directory.journal)
        let schemaLine = beforeMigration.count
        #expect(migrated.count > schemaLine)

        // A flipped byte inside the whole schema record: corruptStoreFile at its offset, nothing written.
        var damaged = migrated
        damaged[schemaLine + 40] ^= 0x20
        try damaged.write(to: directory.journal)
        let before = try fingerprint(directory.url)
        #expect {
            try openMemoStore(directory.url)
        } throws: { error in
            guard let error = error as? DataStoreError, error.code == .corruptStoreFile else { return false }
            return error.offset == Int64(schemaLine)
        }
        #expect(try fingerprint(directory.url) == before)

        // The same record cut short (a crash while writing it): a torn tail, cut back; the old schema stands.
        try migrated.prefix(migrated.count - 10).write(to: directory.journal)
        let reader = try JSONFileDataStore(
            JSONFileStoreConfiguration(name: "memos", directory: directory.url))
        #expect(try reader.recordedSchema()?.entities[0].attribute(named: "body") != nil)
        #expect(try recordBytes(of: directory.journal) == beforeMigration)
    }

    @Test func repairCutsBackToTheLastGoodRecordAndKeepsTheRemovedBytes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try openMemoStore(directory.url)
        for index in 0..<5 { try saveMemo("m\(index)", to: store) }
        var bytes = try recordBytes(of: directory.journal)
        let damaged = offsetOfLine(4, in: bytes)
        bytes[damaged + 30] ^= 0x01
        try bytes.write(to: directory.journal)

        let report = try #require(try JSONFileDataStore.repair(directory: directory.url))
        #expect(report.offset == Int64(damaged))
        #expect(report.removedByteCount == Int64(bytes.count - damaged))
        let sideFile = try Data(contentsOf: URL(fileURLWithPath: report.sideFile))
        #expect(sideFile == bytes[damaged...])
        let reopened = try openMemoStore(directory.url)
        #expect(try reopened.fetchHistory(.init()).map(\.token.sequence) == [1, 2, 3])
        // A healthy store needs no repair, and repair changes nothing then.
        let healthy = try fingerprint(directory.url)
        #expect(try JSONFileDataStore.repair(directory: directory.url) == nil)
        #expect(try fingerprint(directory.url) == healthy)
    }

    @Test func aFailedCutBackMakesTheInstanceRefuseEverythingUntilReopened() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try openMemoStore(directory.url)
        for index in 0..<3 { try saveMemo("m\(index)", to: store) }
        let fragment = directory.url.lastPathComponent
        FaultInjection.inject(.synchronize, pathContaining: fragment, count: 1)
        FaultInjection.inject(.truncate, pathContaining: fragment, count: 1)
        defer { FaultInjection.clear(pathContaining: fragment) }

        #expect(throws: DataStoreError.self) { try saveMemo("rejected", to: store) }
        for attempt in [
            { _ = try saveMemo("after", to: store) }, { _ = try store.fetchHistory(.init()) },
            { _ = try store.modelCount() },
        ] {
            #expect {
                try attempt()
            } throws: { error in
                if case DataStoreError.storeUnusableUntilReopened = error { return true }
                return false
            }
        }
        // Another opener never sees the rejected save, and the next writer cuts it back.
        let reader = try openMemoStore(directory.url, readOnly: true)
        #expect(try reader.fetchHistory(.init()).map(\.token.sequence) == [1, 2, 3])
        let reopened = try openMemoStore(directory.url)
        #expect(try reopened.modelCount() == 3)
        #expect(try saveMemo("next", to: reopened)?.sequence == 4)
        #expect(
            try reader.fetchHistory(.init()).flatMap(\.changes).map(\.changedPersistentIdentifier.primaryKey)
                == [
                    "m0", "m1", "m2", "next",
                ])
    }

    @Test(arguments: [FaultInjection.Operation.write, .synchronize])
    func aFullDiskOrAFailedFsyncRejectsTheSaveAndKeepsTheStoreUsable(_ failing: FaultInjection.Operation)
        throws
    {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try openMemoStore(directory.url)
        for index in 0..<3 { try saveMemo("m\(index)", to: store) }
        let fragment = directory.url.lastPathComponent
        FaultInjection.inject(failing, pathContaining: fragment, errno: ENOSPC, count: 1)
        defer { FaultInjection.clear(pathContaining: fragment) }

        #expect {
            try saveMemo("rejected", to: store)
        } throws: { error in
            guard let error = error as? DataStoreError, error.code == .storageUnavailable else {
                return false
            }
            return error.reason?.contains("errno \(ENOSPC)") == true
                && (error.underlyingError as? POSIXError)?.code == .ENOSPC
        }
        let other = try openMemoStore(directory.url, readOnly: true)
        #expect(try other.modelCount() == 3)
        #expect(try saveMemo("accepted", to: store)?.sequence == 4)
        #expect(try other.fetchHistory(.init()).map(\.token.sequence) == [1, 2, 3, 4])
        #expect(
            try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Memo>())).snapshots.count == 4)
    }

    @Test func temporaryFilesOfDeadProcessesAreRemovedByTheNextWriter() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try openMemoStore(directory.url)
        try saveMemo("m0", to: store)
        let dead = try deadProcessIdentifier()
        let leftovers = ["journal.jsonl.tmp-\(dead)", "snapshot.json.tmp-\(dead)"]
        for name in leftovers {
            try Data(repeating: 0x41, count: 1_000).write(to: directory.url.appendingPathComponent(name))
        }
        // A file in the middle of being written by a live process stays.
        let live = "snapshot.json.tmp-\(getppid())"
        try Data("in progress".utf8).write(to: directory.url.appendingPathComponent(live))

        _ = try openMemoStore(directory.url, readOnly: true)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(Set(leftovers).isSubset(of: names))  // a reader never writes

        _ = try openMemoStore(directory.url)
        let after = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(Set(leftovers).isDisjoint(with: after))
        #expect(after.contains(live))
    }
}
