import DataStoreHistory
import Foundation
import Observation
import StoreTestSupport
import Synchronization
import Testing

/// Issue 33: `ResultsObserver` keeps a fetch's results current as this context, other contexts and other
/// processes change the models, and does nothing while nothing changes.
@Suite struct ResultsObserverTests {
    private func memoryContainer() throws -> ModelContainer {
        try ModelContainer(for: [Note.self], configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
    }

    @Test func creationThrowsWhenTheFirstFetchFails() throws {
        let container = try memoryContainer()
        try container.close()
        #expect {
            try ResultsObserver(fetchDescriptor: FetchDescriptor<Note>(), modelContainer: container)
        } throws: {
            ($0 as? DataStoreError)?.code == .containerClosed
        }
    }

    @Test func theContextsOwnChangesAndSavesArriveAndUnrelatedChangesDoNot() async throws {
        let context = ModelContext(try memoryContainer())
        let observer = try ResultsObserver(
            filterBy: #Predicate<Note> { $0.body == "keep" }, sortBy: [SortDescriptor(\.title)],
            modelContext: context)
        var updates = observer.updates().makeAsyncIterator()
        #expect(try await updates.next()?.results.isEmpty == true)

        let first = Note(title: "b")
        first.body = "keep"
        context.insert(first)  // unsaved: a fetch includes pending inserts
        #expect(try await updates.next()?.results.map(\.title) == ["b"])

        try context.save()
        let unrelated = Note(title: "z")
        unrelated.body = "other"
        context.insert(unrelated)
        try context.save()
        let second = Note(title: "a")
        second.body = "keep"
        context.insert(second)
        // Neither the save nor the unrelated insert changed the results: the next snapshot is this one.
        #expect(try await updates.next()?.results.map(\.title) == ["a", "b"])
        #expect(observer.results.map(\.title) == ["a", "b"])

        context.delete(first)
        #expect(try await updates.next()?.results.map(\.title) == ["a"])
        context.rollback()
        #expect(try await updates.next()?.results.map(\.title) == ["b"])
    }

    /// Models whose properties report their changes wake the observer on every unsaved edit, not only the first.
    @Test func unsavedEditsOfReportingModelsArriveEachTime() async throws {
        let container = try ModelContainer(
            for: [ReportingNote.self], configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
        let context = ModelContext(container)
        let note = ReportingNote()
        note.title = "a"
        context.insert(note)
        try context.save()
        let observer = try ResultsObserver(
            fetchDescriptor: FetchDescriptor<ReportingNote>(), modelContext: context)
        var updates = observer.updates().makeAsyncIterator()
        #expect(try await updates.next()?.results.map(\.title) == ["a"])
        note.title = "b"
        #expect(try await updates.next()?.results.map(\.title) == ["b"])
        note.title = "c"
        #expect(try await updates.next()?.results.map(\.title) == ["c"])
    }

    @Test func anotherContextsSaveArrivesWithTheNewValues() async throws {
        let container = try memoryContainer()
        let writer = ModelContext(container)
        let note = Note(title: "draft")
        writer.insert(note)
        try writer.save()

        let observer = try ResultsObserver(
            fetchDescriptor: FetchDescriptor<Note>(), modelContainer: container)
        var updates = observer.updates().makeAsyncIterator()
        #expect(try await updates.next()?.results.map(\.title) == ["draft"])
        note.title = "final"
        try writer.save()
        // Same model, same position: only its stored value changed, and that is a change of the results.
        #expect(try await updates.next()?.results.map(\.title) == ["final"])
    }

    @Test func anotherProcessesCommitsArrive() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "results-observer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = try ModelContainer(
            for: [Entry.self],
            configurations: [
                ModelConfiguration(JSONFileStoreConfiguration(name: "entries", directory: directory))
            ])
        // The widget writes two rounds of three entries: round 0 matches, round 1 does not.
        let observer = try ResultsObserver(
            filterBy: #Predicate<Entry> { $0.round == 0 }, modelContainer: container)
        let started = ChangeFlag()
        let latest = LatestCount()
        let seen = Task {
            var counts: [Int] = []
            for try await snapshot in observer.updates() {
                counts.append(snapshot.results.count)
                latest.set(snapshot.results.count)
                started.set()
                if snapshot.results.count == 4 { break }
            }
            return counts
        }
        // The widget starts once the observer holds its first results, so that they are the empty ones.
        for _ in 0..<3000 where !started.isSet { try await Task.sleep(for: .milliseconds(10)) }
        let widget = try ChildProcess(["write-loop", "jsonfile", directory.path, "widget", "2"])
        #expect(await widget.exitStatus(within: .seconds(60)) == 0)
        for _ in 0..<2000 where latest.value != 3 { try await Task.sleep(for: .milliseconds(10)) }
        // Both rounds are committed and round 0 arrived; give round 1's signal time to be handled. A matching
        // insert here is the next change: had round 1 produced results, they would come before it.
        try await Task.sleep(for: .milliseconds(200))
        let local = ModelContext(container)
        var mine = Entry()
        mine.key = "mine"
        local.insert(mine)
        try local.save()
        let counts = try #require(
            try await value(of: seen, within: .seconds(20)), "the widget's entries did not arrive within 20 s"
        )
        #expect(counts == [0, 3, 4])
    }

    /// Another instance migrates the store to a newer schema while the observer runs: the observer's next
    /// fetch meets `schemaChanged`, and its sequence ends with that error instead of waiting forever.
    @Test func aStoreMigratedUnderneathEndsTheSequenceWithATypedError() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "results-migrated-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = JSONFileStoreConfiguration(name: "notes", directory: directory)
        let container = try ModelContainer(
            for: [Note.self], configurations: [ModelConfiguration(configuration)])
        let observer = try ResultsObserver(
            fetchDescriptor: FetchDescriptor<Note>(), modelContainer: container)
        var updates = observer.updates().makeAsyncIterator()
        #expect(try await updates.next()?.results.isEmpty == true)
        let newer = try ModelContainer(
            for: [NoteWithPriority.self], configurations: [ModelConfiguration(configuration)])
        let context = ModelContext(newer)
        context.insert(NoteWithPriority())
        try context.save()
        await #expect {
            while try await updates.next() != nil {}
        } throws: {
            ($0 as? DataStoreError)?.code == .schemaChanged
        }
    }

    @Test func sectionsGroupByTheKeyPathInItsOrder() async throws {
        let context = ModelContext(try memoryContainer())
        for (title, body) in [("b", "2"), ("a", "3"), ("b", "1"), ("a", "4")] {
            let note = Note(title: title)
            note.body = body
            context.insert(note)
        }
        try context.save()
        let observer = try ResultsObserver(
            fetchDescriptor: FetchDescriptor<Note>(sortBy: [SortDescriptor(\.body)]), sectionBy: \.title,
            modelContext: context)
        // The section key path is sorted first, so each section is contiguous.
        #expect(observer.sortBy.count == 2)
        let sections = try #require(observer.sections)
        #expect(sections.sectionTitles == ["a", "b"])
        #expect(sections[sectionTitle: "a"]?.map(\.body) == ["3", "4"])
        #expect(sections[sectionTitle: "b"]?.map(\.body) == ["1", "2"])
        #expect(sections[sectionTitle: "c"] == nil)
        let unsectioned = try ResultsObserver(fetchDescriptor: FetchDescriptor<Note>(), modelContext: context)
        #expect(unsectioned.sections == nil)
    }

    @Test func settingTheSortFetchesAgainAndObservationSeesIt() throws {
        let context = ModelContext(try memoryContainer())
        for title in ["b", "a", "c"] { context.insert(Note(title: title)) }
        let observer = try ResultsObserver(
            sortBy: [SortDescriptor(\Note.title)], modelContext: context)
        #expect(observer.results.map(\.title) == ["a", "b", "c"])
        let changed = ChangeFlag()
        withObservationTracking {
            _ = observer.results
        } onChange: {
            changed.set()
        }
        observer.sortBy = [SortDescriptor(\Note.title, order: .reverse)]
        #expect(observer.results.map(\.title) == ["c", "b", "a"])
        #expect(changed.isSet)
    }

    @Test func anIdleObserverFetchesNothing() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "results-idle-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = try ModelContainer(
            for: [Note.self],
            configurations: [
                ModelConfiguration(JSONFileStoreConfiguration(name: "notes", directory: directory))
            ])
        let observer = try ResultsObserver(
            fetchDescriptor: FetchDescriptor<Note>(), modelContainer: container)
        var updates = observer.updates().makeAsyncIterator()
        _ = try await updates.next()
        let waiting = Task {
            try await Task.sleep(for: .seconds(5))
            let other = ModelContext(container)
            other.insert(Note(title: "late"))
            try other.save()
        }
        let fetchesBefore = observer.fetchCount
        // The iterator waits through five seconds of nothing, then the save wakes it.
        #expect(try await updates.next()?.results.map(\.title) == ["late"])
        try await waiting.value
        // None while idle (a 100 ms poll would have made about fifty); one or two for the save (its
        // in-process signal and the store's inotify signal may or may not merge).
        #expect(observer.fetchCount - fetchesBefore <= 2, "fetches while idle and for one save")
    }
}

/// A flag an observation callback sets.
private final class ChangeFlag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}

/// The last count an observing task saw.
private final class LatestCount: Sendable {
    private let count = Mutex(-1)
    var value: Int { count.withLock { $0 } }
    func set(_ value: Int) { count.withLock { $0 = value } }
}

/// `Note` after an app update added an attribute (a lightweight migration).
private final class NoteWithPriority: PersistentModel {
    static let entityName = "Note"
    static let schemaAttributes: [ModelAttribute<NoteWithPriority>] = [
        .attribute("title", \.title, options: .preserveValueOnDeletion), .attribute("body", \.body),
        .attribute("priority", \.priority),
    ]
    var persistentModelID = PersistentIdentifier()
    var title = ""
    var body = ""
    var priority = 0
    init() {}
}
