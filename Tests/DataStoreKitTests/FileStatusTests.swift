import CFileStatus
import DataStoreCore
import DataStoreKit
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file's identity, size and names, as the stores read them before every save: the same as `stat` says,
/// and, on Linux, read without the timestamps (reading those makes the next durable write slower).
@Suite struct FileStatusTests {
    func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("status-\(name)-\(UUID().uuidString)")
            .path
    }

    func statted(_ path: String) throws -> stat {
        var info = stat()
        try #require(stat(path, &info) == 0)
        return info
    }

    @Test func theStatusIsWhatStatSays() throws {
        let path = temporaryPath("same")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data("hello".utf8)))
        let file = try StoreFile(path: path, mode: .readWrite(create: false))
        let info = try statted(path)
        for status in [try file.status(), try #require(StoreFile.status(atPath: path))] {
            #expect(status.identity.device == UInt64(info.st_dev))
            #expect(status.identity.inode == UInt64(info.st_ino))
            #expect(status.size == 5)
            #expect(status.links == 1)
        }
        try file.appendRecords([Data("12345".utf8)], at: 5, synchronize: false)
        #expect(try file.status().size == 10)
        #expect(StoreFile.status(atPath: path)?.size == 10)
        #expect(StoreFile.status(atPath: path + ".missing") == nil)
    }

    @Test func aReplacedFileHasANewIdentityAndTheOpenOneNoName() throws {
        let path = temporaryPath("replaced")
        let replacement = path + ".new"
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: replacement)
        }
        #expect(FileManager.default.createFile(atPath: path, contents: Data("old".utf8)))
        #expect(FileManager.default.createFile(atPath: replacement, contents: Data("newer".utf8)))
        let file = try StoreFile(path: path, mode: .readOnly)
        let before = try file.status()
        #expect(rename(replacement, path) == 0)
        let after = try #require(StoreFile.status(atPath: path))
        #expect(after.identity != before.identity && after.size == 5)
        #expect(try file.status().links == 0)
        #expect(try file.status().identity == before.identity)
    }

    #if os(Linux)
        @Test func linuxAnswersWithoutTimestamps() throws {
            let path = temporaryPath("statx")
            defer { try? FileManager.default.removeItem(atPath: path) }
            #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
            var status = datastore_file_status()
            // 0: `statx` answered, asked for identity, size and names only (-2 would mean the fallback).
            #expect(datastore_file_status_get(-1, path, &status) == 0)
            #expect(status.size == 1 && status.links == 1)
            // And the stores' reads go that way: none falls back on `stat`.
            let before = StoreFile.statusReadsWithTimestamps
            let file = try StoreFile(path: path, mode: .readOnly)
            #expect(try file.status().size == 1 && StoreFile.status(atPath: path)?.size == 1)
            #expect(StoreFile.statusReadsWithTimestamps == before)
        }

    #endif
}
