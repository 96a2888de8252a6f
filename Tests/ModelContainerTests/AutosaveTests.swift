import DataStoreHistory
import Foundation
import StoreTestSupport
import Testing

/// `mainContext`, autosave and `transaction`, as in SwiftData.
@Suite struct AutosaveTests {
    @Test func anInsertOnTheMainContextSurvivesANormalExitWithoutSave() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent(
            "autosave-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["DATASTOREHISTORY_DATA_HOME": home.path]
        let writer = try ChildProcess(["main-context-insert", "Porto"], environment: environment)
        #expect(writer.waitForExit(timeout: .seconds(60)) == 0)
        let reader = try ChildProcess(["default-container-count"], environment: environment)
        #expect(reader.waitForExit(timeout: .seconds(60)) == 0)
        #expect(reader.output == ["COUNT 1"])
    }

    @MainActor @Test func theMainContextSavesSoonAfterAChange() async throws {
        let container = try ModelContainer(
            for: [Note.self], configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
        #expect(container.mainContext.autosaveEnabled)
        #expect(!ModelContext(container).autosaveEnabled)
        container.mainContext.insert(Note(title: "autosaved"))
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Note>()) == 0)  // not yet
        // The save is due after 100 ms on the main queue; a loaded machine may take longer: wait up to 30 s.
        for _ in 0..<1_500 where container.mainContext.hasChanges {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(!container.mainContext.hasChanges)
        #expect(try ModelContext(container).fetch(FetchDescriptor<Note>()).map(\.title) == ["autosaved"])
    }

    /// Issue 33: an edit of a model whose properties report their changes schedules the autosave itself; no
    /// periodic check runs for such models. A model with plain stored properties starts the check, which
    /// finds its edit.
    @MainActor @Test func editsAutosaveWithATimerOnlyForModelsThatCannotReportThem() async throws {
        let container = try ModelContainer(
            for: [ReportingNote.self, PlainNote.self],
            configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
        let context = container.mainContext
        let reporting = ReportingNote()
        reporting.title = "draft"
        context.insert(reporting)
        try context.save()
        #expect(!context.hasAutosaveTimer, "only reporting models are tracked")
        reporting.title = "edited"
        for _ in 0..<1_500 where context.hasChanges { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!context.hasChanges)
        #expect(
            try ModelContext(container).fetch(FetchDescriptor<ReportingNote>()).map(\.title) == ["edited"])
        #expect(!context.hasAutosaveTimer)

        let plain = PlainNote()
        plain.title = "draft"
        context.insert(plain)
        try context.save()
        #expect(context.hasAutosaveTimer, "a model with plain properties is tracked: the check runs")
        plain.title = "edited"
        for _ in 0..<1_500 where context.hasChanges { try await Task.sleep(for: .milliseconds(20)) }
        #expect(try ModelContext(container).fetch(FetchDescriptor<PlainNote>()).map(\.title) == ["edited"])
    }

    @MainActor @Test func aFailingAutosaveIsReportedAndTheChangesStayPending() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "autosave-ro-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        // Creates the store, so that a read-only container can open it.
        _ = try ModelContainer(for: [Note.self], configurations: [ModelConfiguration(url: url)])
        let container = try ModelContainer(
            for: [Note.self], configurations: [ModelConfiguration(allowsSave: false, url: url)])
        let context = container.mainContext
        var reported: [any Error] = []
        context.autosaveErrorHandler = { reported.append($0) }
        context.insert(Note(title: "refused"))
        for _ in 0..<1_500 where reported.isEmpty {  // up to 30 s on a loaded machine
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(reported.contains { if case DataStoreError.readOnlyStore = $0 { true } else { false } })
        #expect(context.hasChanges)
    }

    @Test func aTransactionSavesItsBlockOrRollsItBack() throws {
        let container = try ModelContainer(
            for: [Note.self], configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
        let context = ModelContext(container)
        try context.transaction {
            context.insert(Note(title: "a"))
            context.insert(Note(title: "b"))
        }
        #expect(try context.fetchHistory(.init()).map(\.changes.count) == [2])
        struct Abandon: Error {}
        #expect(throws: Abandon.self) {
            try context.transaction {
                context.insert(Note(title: "c"))
                throw Abandon()
            }
        }
        #expect(!context.hasChanges)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Note>()) == 2)
    }
}

/// Issue 37, item 2: a process that exits from a background thread while the main queue uses the main context:
/// the exit's autosave runs on the main queue, never on the exiting thread (before, 6 runs in 100 crashed here).
/// 50 runs; 10 under a sanitizer (ThreadSanitizer reports the race itself, crash or not).
@Suite struct AutosaveAtExitTests {
    @Test func exitingFromABackgroundThreadNeverCrashes() throws {
        for run in 0..<TestScale.rounds(50, underSanitizer: 10) {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "background-exit-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let child = try ChildProcess(["main-context-background-exit", directory.path])
            let status = child.waitForExit(timeout: .seconds(30))
            #expect(
                status == 0 && !child.wasKilledBySignal, "run \(run) ended with \(String(describing: status))"
            )
            if status != 0 { return }
        }
    }
}
