import DataStoreHistory
import Foundation
import StoreTestSupport
import Testing

/// The container-level observer: another process's commits arrive, filtered by author and model type.
@Suite struct HistoryObserverTests {
    @Test func anObserverOfTheWidgetSeesItsCommitsAndNotTheApps() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "observer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = try ModelContainer(
            for: [Entry.self],
            configurations: [
                ModelConfiguration(JSONFileStoreConfiguration(name: "entries", directory: directory))
            ])
        let app = ModelContext(container)
        app.author = "app"
        var before = Entry()
        before.key = "before"
        app.insert(before)
        try app.save()

        // From now on: what was saved before is not reported.
        let observer = try HistoryObserver(authors: ["widget"], modelContainer: container)
        let received = Task {
            var transactions: [ContainerHistoryTransaction] = []
            for try await transaction in observer.transactions() {
                transactions.append(transaction)
                if transactions.count == 2 { break }
            }
            return transactions
        }
        var mine = Entry()
        mine.key = "mine"
        app.insert(mine)
        try app.save()
        let widget = try ChildProcess(["write-loop", "jsonfile", directory.path, "widget", "2"])
        #expect(await widget.exitStatus(within: .seconds(60)) == 0)
        let outcome = try await value(of: received, within: .seconds(20))
        let transactions = try #require(outcome, "the widget's commits did not arrive within 20 s")
        #expect(transactions.map(\.author) == ["widget", "widget"])
        #expect(transactions.allSatisfy { $0.changes.count == 3 })
        #expect(observer.eventCounter == 2)
        // Its position covers everything it read, the app's own commit included, so it resumes after it.
        let resumed = try HistoryObserver(historyTokens: observer.historyTokens, modelContainer: container)
        #expect(try resumed.fetchNewTransactions().isEmpty)
    }

    /// Issue 37, item 9: the observer reads a page at a time as its consumer asks, and its position never runs
    /// ahead of what it handed out, so a consumer that saves it after each transaction resumes right there.
    @Test func theObserversPositionFollowsWhatItHandedOut() async throws {
        let container = try ModelContainer(
            for: [Note.self], configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
        let context = ModelContext(container)
        for index in 0..<600 {
            context.insert(Note(title: "n\(index)"))
            try context.save()
        }
        let observer = try HistoryObserver(historyTokens: CompositeHistoryToken(), modelContainer: container)
        var iterator = observer.transactions().makeAsyncIterator()
        let first = try #require(try await iterator.next())
        #expect(observer.historyTokens == first.token)
        var last = first
        for _ in 1..<600 { last = try #require(try await iterator.next()) }
        #expect(observer.historyTokens == last.token)
        #expect(observer.eventCounter == 600)
        let resumed = try HistoryObserver(historyTokens: first.token, modelContainer: container)
        #expect(try resumed.fetchNewTransactions().count == 599)
    }

    @Test func aFilterByModelTypeAndAStaleStartingTokenAreHonoured() throws {
        let container = try ModelContainer(
            for: [Note.self, Person.self], configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
        let observer = try HistoryObserver(
            historyTokens: CompositeHistoryToken(), observedModels: [Person.self], modelContainer: container)
        let context = ModelContext(container)
        context.insert(Note(title: "n"))
        try context.save()
        context.insert(Person(name: "p"))
        try context.save()
        #expect(
            try observer.fetchNewTransactions().flatMap(\.changes).map(
                \.changedPersistentIdentifier.entityName) == ["Person"])
        let unknown = CompositeHistoryToken(components: ["elsewhere": .init(epoch: UUID(), sequence: 1)])
        #expect(throws: DataStoreError.self) {
            try HistoryObserver(historyTokens: unknown, modelContainer: container)
        }
    }
}

@Suite struct HistoryObserverErasureTests {
    @Test func anObserverWhoseStoreIsErasedEndsWithATypedError() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "observer-erase-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = JSONFileStoreConfiguration(name: "notes", directory: directory)
        let container = try ModelContainer(
            for: [Note.self], configurations: [ModelConfiguration(configuration)])
        let context = ModelContext(container)
        context.insert(Note(title: "a"))
        try context.save()
        let observer = try HistoryObserver(modelContainer: container, pollInterval: .milliseconds(20))
        // Another instance (as another process would) erases the store: a new epoch.
        try JSONFileDataStore(configuration).erase()
        var thrown: (any Error)?
        do {
            for try await _ in observer.transactions() {}
        } catch {
            thrown = error
        }
        #expect(
            (thrown as? DataStoreError)?.isFromErasedOrRecreatedStore == true)
        // Nothing stored was touched by the observer: the erased store is empty and writable.
        let fresh = ModelContext(container)
        fresh.insert(Note(title: "b"))
        try fresh.save()
        #expect(try fresh.fetchCount(FetchDescriptor<Note>()) == 1)
    }
}

/// Issue 33: observation is pushed. An observer sleeps until a store signals a commit (in-process for the
/// in-memory store and for saves of the container's contexts, inotify for the JSON file store), instead of
/// reading the container ten times a second.
@Suite struct PushedObservationTests {
    @Test(arguments: ["memory", "json"]) func anIdleObserverSleepsUntilACommit(store: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration =
            store == "memory"
            ? ModelConfiguration(isStoredInMemoryOnly: true)
            : ModelConfiguration(JSONFileStoreConfiguration(name: "notes", directory: directory))
        let container = try ModelContainer(for: [Note.self], configurations: [configuration])
        let observer = try HistoryObserver(modelContainer: container)
        let received = Task {
            var titles: [String] = []
            for try await transaction in observer.transactions() {
                titles.append(
                    contentsOf: transaction.changes.map { "\($0.changedPersistentIdentifier.entityName)" })
                if titles.count == 2 { break }
            }
            return titles
        }
        for _ in 0..<3000 where observer.looks == 0 { try await Task.sleep(for: .milliseconds(10)) }
        // Idle: a polling observer (every 100 ms by default) would read the container about ten times here.
        try await Task.sleep(for: .seconds(1))
        #expect(observer.looks == 1, "an idle observer reads nothing")
        let context = ModelContext(container)
        context.insert(Note(title: "one"))
        try context.save()
        context.insert(Note(title: "two"))
        try context.save()
        let titles = try await value(of: received, within: .seconds(20))
        #expect(titles == ["Note", "Note"])
        // Each commit cost at most a look or two (signals merge), not a timer's worth.
        #expect(observer.looks <= 9)
    }

    /// A second container on the same JSON directory stands for another process (its commits reach the
    /// observer only through the store's own signal: inotify).
    @Test func anotherInstancesCommitWakesTheObserver() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushed-other-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = JSONFileStoreConfiguration(name: "notes", directory: directory)
        let container = try ModelContainer(
            for: [Note.self], configurations: [ModelConfiguration(configuration)])
        let other = try ModelContainer(for: [Note.self], configurations: [ModelConfiguration(configuration)])
        let observer = try HistoryObserver(modelContainer: container)
        let received = Task {
            for try await transaction in observer.transactions() { return transaction.author }
            return nil
        }
        for _ in 0..<3000 where observer.looks == 0 { try await Task.sleep(for: .milliseconds(10)) }
        let widget = ModelContext(other)
        widget.author = "widget"
        widget.insert(Note(title: "from the widget"))
        try widget.save()
        let author = try await value(of: received, within: .seconds(20))
        #expect(author == "widget")
    }
}
