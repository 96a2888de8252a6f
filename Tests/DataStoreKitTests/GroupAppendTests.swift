import DataStoreCore
import DataStoreKit
import Foundation
import Testing

/// A group of records appended together is all there or none of it is readable.
@Suite struct GroupAppendTests {
    func temporaryFile() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "group-append-\(UUID().uuidString).jsonl"
        ).path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        return path
    }

    func records(_ names: [String]) -> [Data] {
        names.map { RecordFraming.frame(Data(#"{"name":"\#($0)"}"#.utf8)) }
    }

    @Test func aFailedGroupWhoseCutBackFailsReadsAsOneTornTail() throws {
        let path = try temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try StoreFile(path: path, mode: .readWrite(create: false))
        let kept = records(["a", "b"])
        try file.appendRecords(kept, at: 0, synchronize: true)
        let end = Int64(kept.reduce(0) { $0 + $1.count })

        FaultInjection.inject(.synchronize, pathContaining: path, count: 1)
        FaultInjection.inject(.truncate, pathContaining: path, count: 1)
        defer { FaultInjection.clear(pathContaining: path) }
        #expect {
            try file.appendRecords(records(["c", "d", "e"]), at: end, synchronize: true)
        } throws: { ($0 as? DataStoreError)?.code == .storeUnusableUntilReopened }

        // None of the three rejected records reads as whole: the group is one incomplete last line.
        let parsed = try RecordFraming.parse(
            try Data(contentsOf: URL(fileURLWithPath: path)), startingAt: 0, path: path)
        #expect(
            parsed.records.map { String(decoding: $0.payload, as: UTF8.self) } == [
                #"{"name":"a"}"#, #"{"name":"b"}"#,
            ])
        #expect(parsed.endOfValidData == end)
        #expect(parsed.hasTornTail)
    }

    @Test func aFailedGroupIsCutBackWhole() throws {
        let path = try temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try StoreFile(path: path, mode: .readWrite(create: false))
        try file.appendRecords(records(["a"]), at: 0, synchronize: true)
        let end = Int64(records(["a"])[0].count)
        FaultInjection.inject(.synchronize, pathContaining: path, count: 1)
        defer { FaultInjection.clear(pathContaining: path) }
        #expect(throws: DataStoreError.self) {
            try file.appendRecords(records(["b", "c"]), at: end, synchronize: true)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == Int(end))
    }
}
