import Foundation
import InMemoryStorage
import Testing

@testable import DataStoreCore
@testable import DataStoreModels

/// `FetchDescriptor.includePendingChanges`: a context's fetch sees its own unsaved work, as in SwiftData.
@Suite struct PendingChangesFetchTests {
    @Test func unsavedInsertsAppearDeletesDisappearAndChangesApply() throws {
        let container = try makeNoteContainer()
        let context = ModelContext(container)
        for (index, title) in ["a", "b", "c"].enumerated() { context.insert(Note(title: title, rank: index)) }
        try context.save()
        let saved = try context.fetch(FetchDescriptor<Note>(sortBy: [SortDescriptor(\.title)]))

        context.insert(Note(title: "d", rank: 10))
        context.delete(saved[0])
        saved[1].rank = 20
        let ranked = FetchDescriptor<Note>(
            predicate: #Predicate { $0.rank >= 2 }, sortBy: [SortDescriptor(\.rank)])
        #expect(try context.fetch(ranked).map(\.title) == ["c", "d", "b"])
        #expect(try context.fetchCount(FetchDescriptor<Note>()) == 3)
        #expect(
            try context.fetch(FetchDescriptor<Note>(sortBy: [SortDescriptor(\.title)])).map(\.title) == [
                "b", "c", "d",
            ])
        var limited = FetchDescriptor<Note>(sortBy: [SortDescriptor(\.title)], fetchOffset: 1, fetchLimit: 1)
        #expect(try context.fetch(limited).map(\.title) == ["c"])
        // The inserted instance is the one the context tracks.
        #expect(
            try context.fetch(FetchDescriptor<Note>(predicate: #Predicate { $0.title == "d" })).first?.rank
                == 10)

        // Saved state only.
        limited.includePendingChanges = false
        #expect(try context.fetch(limited).map(\.title) == ["b"])
        var savedOnly = ranked
        savedOnly.includePendingChanges = false
        #expect(try context.fetch(savedOnly).map(\.title) == ["c"])
        #expect(context.hasChanges)  // fetching changed nothing

        // Another context sees only what is saved; after the save, everything.
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Note>()) == 3)
        try context.save()
        #expect(try ModelContext(container).fetch(ranked).map(\.title) == ["c", "d", "b"])
    }
}
