import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import Testing

/// A note whose properties report their changes.
final class ReportingNote: PersistentModel {
    static let schemaAttributes: [ModelAttribute<ReportingNote>] = [
        .attribute("title", \.title), .attribute("body", \.body), .attribute("rank", \.rank),
    ]
    var persistentModelID = PersistentIdentifier()
    @Attribute var title = ""
    @Attribute var body = ""
    @Attribute var rank = 0
    init() {}
}

/// The same note with plain stored properties: the context must compare each tracked one.
final class PlainNote: PersistentModel {
    static let schemaAttributes: [ModelAttribute<PlainNote>] = [
        .attribute("title", \.title), .attribute("body", \.body), .attribute("rank", \.rank),
    ]
    var persistentModelID = PersistentIdentifier()
    var title = ""
    var body = ""
    var rank = 0
    init() {}
}

/// A plain note filed in a folder: plain stored properties, and a relationship.
final class PlainFiledNote: PersistentModel {
    static let schemaAttributes: [ModelAttribute<PlainFiledNote>] = [
        .attribute("title", \.title), .relationship("folder", \.folder, inverse: \PlainFolder.notes),
    ]
    var persistentModelID = PersistentIdentifier()
    var title = ""
    @Relationship var folder: PlainFolder?
    init() {}
}

/// The folder holding plain notes.
final class PlainFolder: PersistentModel {
    static let schemaAttributes: [ModelAttribute<PlainFolder>] = [.relationship("notes", \.notes)]
    var persistentModelID = PersistentIdentifier()
    @Relationship var notes: [PlainFiledNote] = []
    init() {}
}

/// `save()` and `hasChanges` look only at models that may have changed: with `@Attribute` properties, the cost
/// of one change does not grow with the number of models a context tracks (counted, not timed).
@Suite struct SaveCostTests {
    static let tracked = 40_000

    static func context<Model: PersistentModel>(
        tracking _: Model.Type, count: Int = tracked, configure: (Model, Int) -> Void
    )
        throws
        -> (ModelContext, [Model])
    {
        let container = try ModelContainer(
            for: [Model.self], configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "notes"))]
        )
        let writer = ModelContext(container)
        for index in 0..<count {
            let model = Model()
            configure(model, index)
            writer.insert(model)
        }
        try writer.save()
        let context = ModelContext(container)
        return (context, try context.fetch(FetchDescriptor<Model>()))
    }

    @Test func oneChangeAmongFortyThousandTrackedModelsExaminesOnlyThatModel() throws {
        let (context, notes) = try Self.context(tracking: ReportingNote.self) { $0.rank = $1 }
        #expect(notes.count == Self.tracked)
        let before = context.modelsExamined
        #expect(!context.hasChanges)
        #expect(context.modelsExamined - before == 0)

        try #require(notes.first { $0.rank == 12_345 }).title = "changed"
        let start = context.modelsExamined
        #expect(context.hasChanges)
        try context.save()
        #expect(!context.hasChanges)
        // hasChanges, the save's request and relationship check, and hasChanges again: a few looks at one model.
        #expect(context.modelsExamined - start <= 4)
        #expect(
            try ModelContext(context.container).fetch(
                FetchDescriptor<ReportingNote>(predicate: #Predicate { $0.title == "changed" })
            ).map(\.rank) == [12_345])

        // A property set back to its saved value is no change, and leaves the log.
        notes[7].body = "x"
        notes[7].body = ""
        #expect(!context.hasChanges)
        let settled = context.modelsExamined
        #expect(!context.hasChanges)
        #expect(context.modelsExamined == settled)

        // A fetch that refreshes every model is not a change either.
        _ = try context.fetch(FetchDescriptor<ReportingNote>())
        let refreshed = context.modelsExamined
        #expect(!context.hasChanges)
        #expect(context.modelsExamined == refreshed)
    }

    /// Models a context inserted and saved stay tracked as fetched ones are: an `@Attribute` model by the
    /// changes it reports (one look, among a thousand), a plain one by comparing.
    @Test func insertedModelsStayTrackedAfterTheirSave() throws {
        let container = try ModelContainer(
            for: [ReportingNote.self, PlainNote.self],
            configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "notes"))])
        let context = ModelContext(container)
        let notes = (0..<1_000).map { index in
            let note = ReportingNote()
            note.rank = index
            context.insert(note)
            return note
        }
        let plain = PlainNote()
        context.insert(plain)
        try context.save()
        #expect(!context.hasChanges)
        // The save registered them as saved at once, not one by one as inserted (deferred inserts).
        #expect(context.deferredInsertsRegistered == 0)

        notes[10].title = "changed"
        let start = context.modelsExamined
        #expect(context.hasChanges)
        try context.save()
        // hasChanges and the save each look at the changed note and the plain one, which is always compared.
        #expect(context.modelsExamined - start <= 6)
        plain.title = "plain changed"
        #expect(context.hasChanges)
        try context.save()
        let reader = ModelContext(container)
        #expect(
            try reader.fetch(FetchDescriptor<ReportingNote>(predicate: #Predicate { $0.title == "changed" }))
                .map(\.rank) == [10])
        #expect(try reader.fetch(FetchDescriptor<PlainNote>()).map(\.title) == ["plain changed"])
    }

    /// The fallback, and proof that the counter counts: plain properties cannot report, so each tracked model
    /// is compared.
    @Test func plainPropertiesAreComparedModelByModel() throws {
        let (context, notes) = try Self.context(tracking: PlainNote.self, count: 4_000) { $0.rank = $1 }
        notes[3].title = "changed"
        let start = context.modelsExamined
        try context.save()
        #expect(context.modelsExamined - start >= 4_000)
        #expect(
            try ModelContext(context.container).fetchCount(
                FetchDescriptor<PlainNote>(predicate: #Predicate { $0.title == "changed" })) == 1)
    }

    /// An in-memory container holding one saved folder of `notes` plain notes.
    static func savedFolder(notes: Int) throws -> ModelContainer {
        let container = try ModelContainer(
            for: [PlainFolder.self, PlainFiledNote.self],
            configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "folders"))])
        let writer = ModelContext(container)
        let folder = PlainFolder()
        writer.insert(folder)
        folder.notes = (0..<notes).map { index in
            let note = PlainFiledNote()
            note.title = "note \(index)"
            return note
        }
        try writer.save()
        return container
    }

    /// A save compares each model that cannot report its writes once, though a container with relationships
    /// also looks for models the changed ones gained: comparing them all again for that doubled the cost of
    /// every save.
    @Test func aSaveComparesEachPlainModelOnce() throws {
        let container = try Self.savedFolder(notes: 1_000)

        let context = ModelContext(container)
        let notes = try context.fetch(FetchDescriptor<PlainFiledNote>())
        #expect(notes.count == 1_000)
        notes[3].title = "changed"
        let start = context.modelsExamined
        try context.save()
        #expect(context.modelsExamined - start >= 1_000)
        #expect(context.modelsExamined - start <= 1_010)

        // A relationship a compared model gained still brings its new model into the save.
        let moved = PlainFiledNote()
        moved.title = "new"
        notes[4].title = "edited"
        moved.folder = notes[4].folder
        try context.save()
        let reader = ModelContext(container)
        #expect(
            try reader.fetch(FetchDescriptor<PlainFiledNote>(predicate: #Predicate { $0.title == "new" }))
                .first?.folder?.notes.count == 1_001)
        #expect(
            try reader.fetchCount(
                FetchDescriptor<PlainFiledNote>(predicate: #Predicate { $0.title == "edited" })) == 1)
    }

    /// A fetch into a context tracking models that cannot report their writes compares each of them to find
    /// the unsaved changes it must show, then each one it returns before refreshing it: it compared them all
    /// again for each question it asked (any changes? of this entity? of a related one?).
    @Test func aFetchComparesEachPlainModelAtMostTwice() throws {
        let container = try Self.savedFolder(notes: 1_000)

        let context = ModelContext(container)
        let notes = try context.fetch(FetchDescriptor<PlainFiledNote>(sortBy: [SortDescriptor(\.title)]))
        let start = context.modelsExamined
        let again = try context.fetch(FetchDescriptor<PlainFiledNote>(sortBy: [SortDescriptor(\.title)]))
        #expect(again.map(ObjectIdentifier.init) == notes.map(ObjectIdentifier.init))
        #expect(context.modelsExamined - start >= 1_000)
        #expect(context.modelsExamined - start <= 2_010)

        // With an unsaved change, the fetch still shows it (and sorts by it), at the same cost.
        notes[0].title = "zz last"
        let changed = context.modelsExamined
        let sorted = try context.fetch(FetchDescriptor<PlainFiledNote>(sortBy: [SortDescriptor(\.title)]))
        #expect(sorted.last === notes[0])
        #expect(sorted.count == 1_000)
        #expect(context.modelsExamined - changed <= 2_010)
    }
}
