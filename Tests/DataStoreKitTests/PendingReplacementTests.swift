import DataStoreCore
import Foundation
import Testing

@testable import DataStoreKit

/// A replacement in two halves (`AtomicFileWriter.written`, then `complete()` on another thread, as a
/// checkpoint does with its history segment): the target keeps its old contents until the second half, then
/// holds the new ones, and no temporary file is left.
@Suite struct PendingReplacementTests {
    func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pending-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func theTargetChangesOnlyWhenTheReplacementIsCompleted() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("segment").path
        try AtomicFileWriter.replace(target, with: Data("old".utf8))

        let pending = try AtomicFileWriter.written(target, Data("new contents".utf8))
        #expect(FileManager.default.contents(atPath: target) == Data("old".utf8))
        let (completed, _) = ParallelChunks.both({ Result { try pending.complete() } }, { () })
        try completed.get()

        #expect(FileManager.default.contents(atPath: target) == Data("new contents".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["segment"])
    }

    /// A temporary file the first half could not write is removed, and the target is left as it was.
    @Test func aFirstHalfThatFailsLeavesNothingBehind() throws {
        let folder = try directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("missing/segment").path
        #expect(throws: DataStoreError.self) { try AtomicFileWriter.written(target, Data("new".utf8)) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
