import DataStoreCore
import Foundation
import JSONFileStorage
import StoreTestSupport
import Testing

/// The JSON file store's batch delete finds its matches on current state under the file lock, after catching up
/// on other instances' commits: what it deletes is what matches when it commits.
@Suite struct BatchDeleteStoreTests {
    @Test func aMatchAnotherInstanceSavedJustBeforeIsDeleted() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try openMemoStore(directory.url)
        let second = try openMemoStore(directory.url)
        try saveMemo("draft 1", to: first)
        try saveMemo("keep", to: first)
        // The first instance has not read this one yet.
        try saveMemo("draft 2", to: second)
        try first.delete(
            DataStoreBatchDeleteRequest(
                predicate: #Predicate<Memo> { $0.title.starts(with: "draft") },
                editingState: EditingState(author: "sweeper")))
        let left = try second.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Memo>())).snapshots
        #expect(left.map(\.persistentIdentifier.primaryKey) == ["keep"])
        let last = try #require(try second.fetchHistory(HistoryDescriptor()).last)
        #expect(last.author == "sweeper")
        #expect(Set(last.changes.map(\.changedPersistentIdentifier.primaryKey)) == ["draft 1", "draft 2"])
        #expect(last.changes.allSatisfy { $0.kind == .delete })
    }

    @Test func aReadOnlyStoreRefusesABatchDeleteAndChangesNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        do {
            let store = try openMemoStore(directory.url)
            try saveMemo("a", to: store)
        }
        let before = try Data(contentsOf: directory.journal)
        let readOnly = try openMemoStore(directory.url, readOnly: true)
        #expect {
            try readOnly.delete(DataStoreBatchDeleteRequest<Memo>())
        } throws: { ($0 as? DataStoreError)?.code == .readOnlyStore }
        #expect(try Data(contentsOf: directory.journal) == before)
    }
}
