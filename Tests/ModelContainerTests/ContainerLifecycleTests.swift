@_spi(DataStoreInternals) import DataStoreCore
import DataStoreKit
import Dispatch
import Foundation
import JSONFileStorage
import Synchronization
import Testing
import TimeSeriesStorage

@testable import DataStoreModels

/// `ModelContainer.flush()` and `close()`: the explicit lifecycle, so that a program's data is safe before it
/// exits without relying on exit handlers.
@Suite struct ContainerLifecycleTests {
    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("lifecycle-\(UUID().uuidString)")
    }

    static func sample(_ value: Double) -> Sample {
        var sample = Sample(value: value)
        sample.timestamp = Date()
        return sample
    }

    /// The samples a fresh store instance reads from `directory`.
    static func storedSamples(in directory: URL) throws -> [Double] {
        let store = try TimeSeriesDataStore(
            TimeSeriesStoreConfiguration(name: "samples", schema: Schema([Sample.self]), directory: directory)
        )
        return try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Sample>())).snapshots
            .compactMap {
                if case .double(let value) = $0.values["value"] { return value }
                return nil
            }.sorted()
    }

    static func openSamples(_ directory: URL) throws -> ModelContainer {
        try ModelContainer(
            for: [Sample.self],
            configurations: [
                ModelConfiguration(
                    TimeSeriesStoreConfiguration(
                        name: "samples", schema: Schema([Sample.self]), directory: directory,
                        commitWindow: 3_600))
            ])
    }

    /// The main context's unsaved insert and a saved sample still in the time-series store's hour-long commit
    /// window both reach the files on `close()`, in that order (contexts first, then the stores).
    @MainActor @Test func closeSavesTheMainContextThenCommitsTheStoresOpenWindow() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = try Self.openSamples(directory)
        container.mainContext.insert(Self.sample(1))
        try container.mainContext.save()
        container.mainContext.insert(Self.sample(2))
        #expect(try Self.storedSamples(in: directory).isEmpty, "the window is still open")
        try container.close()
        #expect(container.isClosed)
        #expect(try Self.storedSamples(in: directory) == [1, 2])
    }

    /// `flush()` does the same and leaves the container open.
    @MainActor @Test func flushCommitsAndTheContainerStaysOpen() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = try Self.openSamples(directory)
        container.mainContext.insert(Self.sample(1))
        try container.flush()
        #expect(try Self.storedSamples(in: directory) == [1])
        container.mainContext.insert(Self.sample(2))
        try container.mainContext.save()
        try container.flush()
        #expect(try Self.storedSamples(in: directory) == [1, 2])
        #expect(!container.isClosed)
    }

    /// After `close()`, a context's fetch, save and history read throw `containerClosed` and write nothing;
    /// closing again does nothing.
    @Test func useAfterCloseThrowsContainerClosedAndClosingTwiceDoesNothing() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = ModelConfiguration(
            JSONFileStoreConfiguration(name: "notes", schema: Schema([Note.self]), directory: directory))
        let container = try ModelContainer(for: [Note.self], configurations: [configuration])
        let context = ModelContext(container)
        context.insert(Note(title: "kept"))
        try context.save()
        try container.close()
        try container.close()

        let closed = { (error: any Error) in (error as? DataStoreError)?.code == .containerClosed }
        #expect(performing: { try context.fetch(FetchDescriptor<Note>()) }, throws: closed)
        #expect(performing: { try context.fetchCount(FetchDescriptor<Note>()) }, throws: closed)
        #expect(performing: { try context.fetchHistory(HistoryDescriptor()) }, throws: closed)
        context.insert(Note(title: "refused"))
        #expect(performing: { try context.save() }, throws: closed)
        #expect(context.hasChanges, "the refused insert stays pending, as after any failed save")

        let reopened = ModelContext(try ModelContainer(for: [Note.self], configurations: [configuration]))
        #expect(try reopened.fetch(FetchDescriptor<Note>()).map(\.title) == ["kept"])
    }

    /// A save another thread is in the middle of when `close()` is called finishes first and is kept; close
    /// waits for it. The save is stopped inside the store's journal write until the close has begun.
    @Test func closeWaitsForASaveUnderWayOnAnotherThread() throws {
        let directory = Self.temporaryDirectory()
        defer {
            FaultInjection.clear(pathContaining: directory.path)
            try? FileManager.default.removeItem(at: directory)
        }
        let configuration = ModelConfiguration(
            JSONFileStoreConfiguration(name: "notes", schema: Schema([Note.self]), directory: directory))
        let container = try ModelContainer(for: [Note.self], configurations: [configuration])
        let inSave = DispatchSemaphore(value: 0)
        FaultInjection.intercept(
            .synchronize, pathContaining: directory.appendingPathComponent("journal").path
        ) {
            inSave.signal()
            // Go on once close() has begun (it then waits for this save), or after 10 s if it never does.
            let deadline = Date().addingTimeInterval(10)
            while !container.isClosed && Date() < deadline { usleep(1_000) }
        }
        let outcome = Lock<Result<Void, any Error>?>(nil)
        let saved = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let context = ModelContext(container)
            context.insert(Note(title: "under way"))
            let result = Result { try context.save() }
            outcome.withLock { $0 = result }
            saved.signal()
        }
        #expect(inSave.wait(timeout: .now() + 10) == .success, "the save never reached the store")
        try container.close()
        #expect(
            container.lifecycle.operationsCloseWaitedFor == 1, "close() did not wait for the save under way")
        #expect(saved.wait(timeout: .now() + 10) == .success)
        let result = try #require(outcome.withLock { $0 })
        #expect(throws: Never.self) { try result.get() }
        let reopened = ModelContext(try ModelContainer(for: [Note.self], configurations: [configuration]))
        #expect(try reopened.fetch(FetchDescriptor<Note>()).map(\.title) == ["under way"])
    }
}
