import DataStoreCore
import Foundation
import StoreTestSupport
import Testing
import TimeSeriesStorage

/// A commit window's samples are committed when the store is released or the process exits normally.
@Suite struct CommitWindowCloseTests {
    func entryCount(in directory: URL) throws -> Int {
        let store = try TimeSeriesDataStore(
            .init(name: "entries", schema: Entry.schema, directory: directory))
        return try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Entry>())).snapshots.count
    }

    @Test func releasingTheStoreCommitsItsOpenWindow() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var store: TimeSeriesDataStore? = try TimeSeriesDataStore(
            .init(name: "entries", schema: Entry.schema, directory: directory.url, commitWindow: 3_600))
        let token = try store?.save(
            DataStoreSaveChangesRequest(inserted: Entry.batch(store: "entries", writer: "w", round: 0)))
        #expect(token?.token == nil)  // still in the window
        store = nil
        #expect(try entryCount(in: directory.url) == 3)
    }

    /// A flush with no window open does nothing, not even read the files: the exit handler flushes every store
    /// that ever had a window, and one whose directory a test or an app has since removed printed a spurious
    /// "the index has disappeared" at exit.
    @Test func aFlushWithNoOpenWindowTouchesNoFile() throws {
        let directory = try TemporaryDirectory()
        let store = try TimeSeriesDataStore(
            .init(name: "entries", schema: Entry.schema, directory: directory.url, commitWindow: 3_600))
        _ = try store.save(
            DataStoreSaveChangesRequest(inserted: Entry.batch(store: "entries", writer: "w", round: 0)))
        #expect(try store.flush() != nil)
        directory.remove()
        var flushed: TimeSeriesHistoryToken?
        #expect(throws: Never.self) { flushed = try store.flush() }
        #expect(flushed == nil)
    }

    @Test func exitingNormallyCommitsTheOpenWindow() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let child = try ChildProcess(["ts-window-exit", directory.url.path, "4"])
        #expect(child.waitForExit(timeout: .seconds(60)) == 0)
        #expect(child.output == ["SAVED 12"])
        #expect(try entryCount(in: directory.url) == 12)
        let store = try TimeSeriesDataStore(
            .init(name: "entries", schema: Entry.schema, directory: directory.url))
        #expect(try store.fetchHistory(.init()).count == 1)  // the window, as one transaction
    }

    /// Issue 37, item 1: the main context's autosave at exit runs before the stores' windows are committed, so
    /// the model it saves into the window is committed too.
    @Test func theMainContextsAutosaveAtExitReachesTheWindow() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let child = try ChildProcess(["ts-main-context-exit", directory.url.path])
        #expect(child.waitForExit(timeout: .seconds(60)) == 0)
        #expect(child.output == ["INSERTED 2"])
        #expect(try entryCount(in: directory.url) == 2)
    }
}
