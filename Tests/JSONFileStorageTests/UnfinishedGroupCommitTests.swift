import DataStoreCore
import Foundation
import StoreTestSupport
import Testing

@_spi(DataStoreInternals) @testable import DataStoreKit
@testable import JSONFileStorage

/// Issue 37, item 5: a power loss during a group commit that kept a later page of the batch and lost the page
/// holding its first records leaves whole records after a hole. They belong to a write that never completed
/// (never acknowledged), so the store opens and cuts them back, instead of refusing to open until repaired.
@Suite struct UnfinishedGroupCommitTests {
    func memo(_ title: String) -> DataStoreSnapshot {
        DataStoreSnapshot(
            persistentIdentifier: PersistentIdentifier(
                storeIdentifier: "memos", entityName: "Memo", primaryKey: title),
            values: ["title": .string(title), "body": .string(String(repeating: "x", count: 200))])
    }

    @Test func aGroupCommitWhoseFirstRecordsNeverReachedTheDiskIsATornTail() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let kept: Int
        do {
            let store = try openMemoStore(directory.url)
            for index in 0..<3 { try saveMemo("m\(index)", to: store) }
            kept = try Data(contentsOf: directory.journal).split(separator: UInt8(ascii: "\n"))
                .filter { $0.first == UInt8(ascii: "{") }.count
            // Two saves written by one append, as group commit writes them.
            let batch = ["g1", "g2"].map {
                CommitQueue<DataStoreSaveChangesRequest, JSONFileDataStore.SaveResult>.Pending(
                    DataStoreSaveChangesRequest(inserted: [memo($0)]))
            }
            store.commit(batch)
            for pending in batch { _ = try #require(pending.result).get() }
        }
        var bytes = try Data(contentsOf: directory.journal)
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let batchStart = lines[0..<kept].reduce(0) { $0 + $1.count + 1 }
        #expect(String(decoding: lines[kept], as: UTF8.self).contains(#""write":\#(batchStart)"#))
        #expect(String(decoding: lines[kept + 1], as: UTF8.self).contains(#""write":\#(batchStart)"#))
        // The page holding the batch's first record reverted to zeros; the second record reached the disk.
        bytes.replaceSubrange(
            batchStart..<(batchStart + lines[kept].count + 1), with: Data(count: lines[kept].count + 1))
        try bytes.write(to: directory.journal)

        let reader = try openMemoStore(directory.url, readOnly: true)
        #expect(try reader.modelCount() == 3)
        let store = try openMemoStore(directory.url)
        #expect(try store.modelCount() == 3)
        #expect(try store.fetchHistory(.init()).map(\.token.sequence) == [1, 2, 3])
        #expect(try saveMemo("after", to: store)?.sequence == 4)
        #expect(
            try JSONFileDataStore(.init(name: "memos", directory: directory.url)).verify().recordCount > 0)
    }
}
