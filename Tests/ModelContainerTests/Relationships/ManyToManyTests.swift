import DataStoreCore
import DataStoreModels
import Foundation
import InMemoryStorage
import JSONFileStorage
import StoreTestSupport
import Testing

/// A note with tags; each tag lists its notes: a to-many relationship whose inverse is to-many too.
final class TaggedNote: PersistentModel {
    static let schemaAttributes: [ModelAttribute<TaggedNote>] = [
        .attribute("title", \.title), .relationship("tags", \.tags, inverse: \NoteTag.notes),
    ]
    var persistentModelID = PersistentIdentifier()
    @Attribute var title = ""
    @Relationship var tags: [NoteTag] = []
    init() {}
    init(title: String) { self.title = title }
}

/// A tag, listing the notes that carry it.
final class NoteTag: PersistentModel {
    static let schemaAttributes: [ModelAttribute<NoteTag>] = [
        .attribute("name", \.name), .relationship("notes", \.notes),
    ]
    var persistentModelID = PersistentIdentifier()
    @Attribute var name = ""
    @Relationship var notes: [TaggedNote]? = []
    init() {}
    init(name: String) { self.name = name }
}

/// Many-to-many relationships (SwiftData's notes and tags): both sides are lists, kept in step in memory and
/// stored consistently.
@Suite struct ManyToManyTests {
    @Test func bothListsStayInStep() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "many-to-many-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = ModelConfiguration(
            JSONFileStoreConfiguration(name: "notes", directory: directory))
        let container = try ModelContainer(
            for: [TaggedNote.self, NoteTag.self], configurations: [configuration])
        let context = ModelContext(container)
        let work = NoteTag(name: "work")
        let home = NoteTag(name: "home")
        let plan = TaggedNote(title: "plan")
        let list = TaggedNote(title: "list")
        context.insert(plan)
        context.insert(list)
        plan.tags = [work, home]
        list.tags.append(home)
        #expect(work.notes?.map(\.title) == ["plan"])
        #expect(home.notes?.map(\.title) == ["plan", "list"])
        work.notes?.append(list)
        #expect(list.tags.map(\.name) == ["home", "work"])
        try context.save()

        let reader = ModelContext(
            try ModelContainer(for: [TaggedNote.self, NoteTag.self], configurations: [configuration]))
        let tags = try reader.fetch(FetchDescriptor<NoteTag>(sortBy: [SortDescriptor(\.name)]))
        #expect(tags.map { $0.notes?.map(\.title) ?? [] } == [["plan", "list"], ["plan", "list"]])
        let notes = try reader.fetch(FetchDescriptor<TaggedNote>(sortBy: [SortDescriptor(\.title)]))
        #expect(notes.map { $0.tags.map(\.name) } == [["home", "work"], ["work", "home"]])

        // Taking a tag off a note takes the note off the tag.
        notes[1].tags.removeAll { $0.name == "home" }
        #expect(tags[0].notes?.map(\.title) == ["list"])
        try reader.save()
        // Deleting a tag (nullify) takes it off every note.
        reader.delete(tags[1])
        try reader.save()
        #expect(notes.map { $0.tags.map(\.name) } == [["home"], []])
        let again = ModelContext(container)
        #expect(
            try again.fetch(FetchDescriptor<TaggedNote>(sortBy: [SortDescriptor(\.title)])).map {
                $0.tags.map(\.name)
            } == [["home"], []])
        #expect(
            try again.fetch(FetchDescriptor<NoteTag>()).map { $0.notes?.map(\.title) ?? [] } == [["list"]])
    }

    /// Two contexts tag one note, each from the lists it read before the other's save: the note ends with both
    /// tags and each tag lists the note.
    @Test func twoContextsTaggingOneNoteKeepBothTags() throws {
        let container = try ModelContainer(
            for: [TaggedNote.self, NoteTag.self],
            configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "notes"))])
        let setup = ModelContext(container)
        setup.insert(TaggedNote(title: "plan"))
        setup.insert(NoteTag(name: "work"))
        setup.insert(NoteTag(name: "urgent"))
        try setup.save()

        func open() throws -> (ModelContext, TaggedNote, [NoteTag]) {
            let context = ModelContext(container)
            let note = try #require(try context.fetch(FetchDescriptor<TaggedNote>()).first)
            let tags = try context.fetch(FetchDescriptor<NoteTag>(sortBy: [SortDescriptor(\.name)]))
            _ = note.tags.count
            _ = tags.map { $0.notes?.count }
            return (context, note, tags)
        }
        let (first, firstNote, firstTags) = try open()
        let (second, secondNote, secondTags) = try open()
        firstNote.tags.append(firstTags[1])  // work
        try first.save()
        secondTags[0].notes?.append(secondNote)  // urgent, from the tag's side
        try second.save()

        let reader = ModelContext(container)
        let note = try #require(try reader.fetch(FetchDescriptor<TaggedNote>()).first)
        #expect(Set(note.tags.map(\.name)) == ["work", "urgent"])
        let tags = try reader.fetch(FetchDescriptor<NoteTag>(sortBy: [SortDescriptor(\.name)]))
        #expect(tags.map { $0.notes?.map(\.title) ?? [] } == [["plan"], ["plan"]])
    }

    /// A note tagged and then deleted in one save: the tag's list ends without it, as in SwiftData, where the
    /// delete's nullify takes it out. Before, the save refused: the tag's list had gained a deleted note.
    @Test func aNoteTaggedAndThenDeletedInOneSaveLeavesTheTagsList() throws {
        let container = try ModelContainer(
            for: [TaggedNote.self, NoteTag.self],
            configurations: [ModelConfiguration(InMemoryStoreConfiguration(name: "notes"))])
        let setup = ModelContext(container)
        let plan = TaggedNote(title: "plan")
        let list = TaggedNote(title: "list")
        setup.insert(plan)
        setup.insert(list)
        let work = NoteTag(name: "work")
        plan.tags = [work]
        try setup.save()

        let context = ModelContext(container)
        let notes = try context.fetch(FetchDescriptor<TaggedNote>(sortBy: [SortDescriptor(\.title)]))
        let tag = try #require(notes[1].tags.first)
        notes[0].tags.append(tag)
        #expect(tag.notes?.map(\.title) == ["plan", "list"])
        context.delete(notes[0])
        #expect(tag.notes?.map(\.title) == ["plan"])
        try context.save()

        let stored = try ModelContext(container).fetch(FetchDescriptor<NoteTag>())
        #expect(stored.map { $0.notes?.map(\.title) } == [["plan"]])
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<TaggedNote>()) == 1)
    }
}

/// A to-many list holds each model once: a tag put on a note twice is stored, and shown after the save, once.
@Suite struct ListedOnceTests {
    @Test func aTagAppendedTwiceIsSavedOnce() throws {
        let container = try ModelContainer(
            for: [TaggedNote.self, NoteTag.self],
            configurations: [
                ModelConfiguration(
                    store: try InMemoryDataStore(
                        .init(name: "notes", schema: Schema([TaggedNote.self, NoteTag.self]))))
            ])
        let context = ModelContext(container)
        let work = NoteTag(name: "work")
        let plan = TaggedNote(title: "plan")
        context.insert(plan)
        context.insert(work)
        try context.save()
        plan.tags.append(work)
        plan.tags.append(work)
        try context.save()
        let reader = ModelContext(container)
        let note = try #require(try reader.fetch(FetchDescriptor<TaggedNote>()).first)
        #expect(note.tags.map(\.name) == ["work"])
        #expect(plan.tags.map(\.name) == ["work"])
        #expect(work.notes?.map(\.title) == ["plan"])
    }

    /// A new tag whose unique name another tag holds becomes that tag on save (an upsert): a note the app put
    /// on both carries the tag once after the save, in the saving context and in the store.
    @Test func aNoteOnATagAndOnItsUpsertCarriesTheTagOnce() throws {
        let container = try ModelContainer(
            for: [SyncTaggedNote.self, SyncTag.self],
            configurations: [
                ModelConfiguration(
                    store: try InMemoryDataStore(.init(name: "notes", schema: SyncSchemas.tags)))
            ])
        let context = ModelContext(container)
        let work = SyncTag(name: "work")
        let plan = SyncTaggedNote(title: "plan")
        context.insert(plan)
        context.insert(work)
        plan.tags.append(work)
        try context.save()
        let again = SyncTag(name: "work")
        context.insert(again)
        plan.tags.append(again)
        try context.save()
        #expect(plan.tags.count == 1)
        let reader = ModelContext(container)
        let note = try #require(try reader.fetch(FetchDescriptor<SyncTaggedNote>()).first)
        #expect(note.tags.map(\.name) == ["work"])
        #expect(try reader.fetch(FetchDescriptor<SyncTag>()).map { $0.notes?.count } == [1])
    }
}
