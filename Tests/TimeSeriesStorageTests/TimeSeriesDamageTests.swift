import DataStoreCore
import Foundation
import StoreTestSupport
import Testing
import TimeSeriesStorage

@testable import DataStoreKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Damage that is not a torn tail, failing writes, and leftovers of crashes, in the time-series store.
@Suite struct TimeSeriesDamageTests {
    /// A store with five segments of two commits each (sequences 1…10), the last one active.
    func fiveSegments(_ directory: TemporaryDirectory) throws -> [String] {
        let store = try TimeSeriesDataStore(.readings(directory.url, span: 60))
        let start = alignedStart(secondsAgo: 3_000, span: 60)
        for block in 0..<5 {
            try append(readings((block * 100)..<(block * 100 + 50), from: start), to: store)
            try append(readings((block * 100 + 50)..<(block * 100 + 60), from: start), to: store)
        }
        return try directory.segmentFiles()
    }

    func lineOffsets(_ bytes: Data) -> [Int] {
        var offsets = [0]
        for (position, byte) in bytes.enumerated()
        where byte == UInt8(ascii: "\n") && position + 1 < bytes.count {
            offsets.append(position + 1)
        }
        return offsets
    }

    func isCorrupt(_ error: any Error, file: String) -> Bool {
        guard let error = error as? DataStoreError, error.code == .corruptStoreFile else { return false }
        return error.path?.hasSuffix(file) == true
    }

    @Test(arguments: ["cut at a record boundary", "emptied"])
    func aClosedSegmentThatLostWholeRecordsIsDamage(_ damage: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let segments = try fiveSegments(directory)
        #expect(segments.count == 5)
        let closed = directory.segments.appendingPathComponent(segments[1])
        let bytes = try Data(contentsOf: closed)
        let cut = damage == "emptied" ? Data() : bytes.prefix(try #require(lineOffsets(bytes).last))
        try cut.write(to: closed)
        let before = try TimeSeriesBehaviourTests().fingerprint(directory.url)

        for readOnly in [true, false] {
            #expect {
                try TimeSeriesDataStore(.readings(directory.url, span: 60, readOnly: readOnly))
                    .fetchHistory(.init())
            } throws: { isCorrupt($0, file: segments[1]) }
        }
        #expect(try TimeSeriesBehaviourTests().fingerprint(directory.url) == before)
    }

    @Test func aFlippedByteInTheActiveSegmentsLastCompleteRecordIsDamage() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let segments = try fiveSegments(directory)
        let active = directory.segments.appendingPathComponent(try #require(segments.last))
        var bytes = try Data(contentsOf: active)
        let last = try #require(lineOffsets(bytes).last)
        bytes[last + 60] ^= 0x02
        try bytes.write(to: active)
        let before = try TimeSeriesBehaviourTests().fingerprint(directory.url)

        for readOnly in [true, false] {
            #expect {
                try TimeSeriesDataStore(.readings(directory.url, span: 60, readOnly: readOnly))
            } throws: { error in
                guard let error = error as? DataStoreError, error.code == .corruptStoreFile else {
                    return false
                }
                return error.path?.hasSuffix(segments[4]) == true && error.offset == Int64(last)
            }
        }
        #expect(try TimeSeriesBehaviourTests().fingerprint(directory.url) == before)

        // Repair cuts the active segment back to its last good record and keeps the removed bytes.
        let report = try #require(try TimeSeriesDataStore.repair(directory: directory.url))
        #expect(report.offset == Int64(last))
        #expect(try Data(contentsOf: URL(fileURLWithPath: report.sideFile)) == bytes[last...])
        let repaired = try TimeSeriesDataStore(.readings(directory.url, span: 60))
        #expect(try repaired.fetchHistory(.init()).map(\.token.sequence) == Array(1...9))
    }

    @Test func aFailedCutBackMakesTheInstanceRefuseEverythingUntilReopened() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try TimeSeriesDataStore(.readings(directory.url, durable: true))
        let start = alignedStart(secondsAgo: 600, span: 3_600)
        try append(readings(0..<10, from: start), to: store)
        let fragment = directory.url.lastPathComponent
        FaultInjection.inject(.synchronize, pathContaining: fragment + "/segments/0", count: 1)
        FaultInjection.inject(.truncate, pathContaining: fragment, count: 1)
        defer { FaultInjection.clear(pathContaining: fragment + "/segments/0") }
        defer { FaultInjection.clear(pathContaining: fragment) }

        #expect(throws: DataStoreError.self) { try append(readings(10..<20, from: start), to: store) }
        #expect {
            try append(readings(20..<30, from: start), to: store)
        } throws: { error in
            if case DataStoreError.storeUnusableUntilReopened = error { return true }
            return false
        }
        #expect {
            try store.fetchHistory(.init())
        } throws: { error in
            if case DataStoreError.storeUnusableUntilReopened = error { return true }
            return false
        }
        let reader = try TimeSeriesDataStore(.readings(directory.url, readOnly: true))
        #expect(try reader.fetchHistory(.init()).map(\.changes.count) == [10])
        let reopened = try TimeSeriesDataStore(.readings(directory.url, durable: true))
        #expect(try append(readings(30..<35, from: start), to: reopened)?.sequence == 2)
        #expect(try reader.fetchHistory(.init()).map(\.changes.count) == [10, 5])
    }

    @Test(arguments: [FaultInjection.Operation.write, .synchronize])
    func aFullDiskOrAFailedFsyncRejectsTheSave(_ failing: FaultInjection.Operation) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try TimeSeriesDataStore(.readings(directory.url, durable: true))
        let start = alignedStart(secondsAgo: 600, span: 3_600)
        try append(readings(0..<10, from: start), to: store)
        let fragment = directory.url.lastPathComponent + "/segments/0"
        FaultInjection.inject(failing, pathContaining: fragment, errno: ENOSPC, count: 1)
        defer { FaultInjection.clear(pathContaining: fragment) }

        #expect(throws: DataStoreError.self) { try append(readings(10..<20, from: start), to: store) }
        let other = try TimeSeriesDataStore(.readings(directory.url, readOnly: true))
        #expect(try other.fetchHistory(.init()).map(\.changes.count) == [10])
        #expect(try append(readings(20..<25, from: start), to: store)?.sequence == 2)
        #expect(try other.fetchHistory(.init()).map(\.changes.count) == [10, 5])
    }

    @Test func temporaryFilesOfDeadProcessesAreRemovedByTheNextWriter() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try fiveSegments(directory)
        let dead = try deadProcessIdentifier()
        let leftovers = [
            directory.url.appendingPathComponent("index.json.tmp-\(dead)"),
            directory.segments.appendingPathComponent("00000000000000000011.jsonl.tmp-\(dead)"),
        ]
        for url in leftovers { try Data(repeating: 0x41, count: 500).write(to: url) }
        _ = try TimeSeriesDataStore(.readings(directory.url, span: 60))
        #expect(leftovers.allSatisfy { !FileManager.default.fileExists(atPath: $0.path) })
    }
}

/// A time about `secondsAgo` in the past at the start of a segment partition, so that a test's samples fall
/// into the partitions it expects.
func alignedStart(secondsAgo: TimeInterval, span: TimeInterval) -> Date {
    let time = Date().addingTimeInterval(-secondsAgo).timeIntervalSinceReferenceDate
    return Date(timeIntervalSinceReferenceDate: (time / span).rounded(.down) * span)
}
