import DataStoreCore
import DataStoreModels
import Foundation
import StoreTestSupport
import Testing

/// A context's undo manager: unsaved edits undone in memory, saved ones by inverse transactions, and never
/// over another author's work.
@Suite struct UndoTests {
    /// A context with an undo manager on a fresh store of `kind`.
    func undoingContext(_ kind: MusicStore, in directory: TemporaryDirectory) throws -> (
        ModelContext, ModelUndoManager
    ) {
        let context = ModelContext(try kind.container(in: directory.url))
        context.author = "app"
        let manager = ModelUndoManager()
        context.undoManager = manager
        return (context, manager)
    }

    func playlists(_ context: ModelContext) throws -> [String: Int] {
        Dictionary(
            uniqueKeysWithValues: try context.fetch(FetchDescriptor<Playlist>()).map { ($0.name, $0.rating) })
    }

    /// A saved reorder of a list is undone and redone: the store takes each order back as written.
    @Test(arguments: MusicStore.allCases)
    func aReorderedListIsUndoneAndRedone(_ kind: MusicStore) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (context, manager) = try undoingContext(kind, in: directory)
        let rock = Playlist(name: "rock")
        context.insert(rock)
        rock.songs = ["a", "b", "c"].map { Song(title: $0) }
        try context.save()
        rock.songs.reverse()
        try context.save()
        func stored() throws -> [String] {
            try ModelContext(context.container).fetch(FetchDescriptor<Playlist>()).first?.songs.map(\.title)
                ?? []
        }
        #expect(try stored() == ["c", "b", "a"])
        try manager.undo()
        #expect(try stored() == ["a", "b", "c"], "the reorder undone")
        try manager.redo()
        #expect(try stored() == ["c", "b", "a"], "the reorder redone")
    }

    @Test(arguments: MusicStore.allCases)
    func savedInsertUpdateAndDeleteUndoAndRedo(_ kind: MusicStore) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (context, manager) = try undoingContext(kind, in: directory)
        let rock = Playlist(name: "rock", rating: 1)
        context.insert(rock)
        try context.save()
        rock.rating = 4
        try context.save()
        context.delete(rock)
        try context.save()
        #expect(try playlists(context).isEmpty)

        try manager.undo()
        #expect(try playlists(context) == ["rock": 4], "the delete undone: inserted again with its values")
        try manager.undo()
        #expect(try playlists(context) == ["rock": 1], "the update undone")
        try manager.undo()
        #expect(try playlists(context).isEmpty, "the insert undone")
        #expect(!manager.canUndo)
        #expect { try manager.undo() } throws: { ($0 as? DataStoreError)?.code == .undoUnavailable }

        try manager.redo()
        try manager.redo()
        #expect(try playlists(context) == ["rock": 4])
        try manager.redo()
        #expect(try playlists(context).isEmpty)
        #expect(!manager.canRedo)

        // History shows each undo and redo as an ordinary transaction by a recognisable author.
        let authors = try context.fetchHistory(HistoryDescriptor()).map { $0.author ?? "-" }
        #expect(
            authors == [
                "app", "app", "app", "app-undo", "app-undo", "app-undo", "app-redo", "app-redo", "app-redo",
            ])
    }

    @Test func unsavedEditsAreUndoneInMemoryAndRedone() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (context, manager) = try undoingContext(.inMemory, in: directory)
        let jazz = Playlist(name: "jazz", rating: 2)
        context.insert(jazz)
        try context.save()
        jazz.rating = 5
        let blues = Playlist(name: "blues")
        context.insert(blues)
        #expect(manager.canUndo)
        try manager.undo()
        #expect(!context.hasChanges)
        #expect(jazz.rating == 2, "the unsaved edit undone in memory")
        #expect(try playlists(context) == ["jazz": 2])
        try manager.redo()
        #expect(jazz.rating == 5)
        #expect(context.hasChanges)
        try context.save()
        #expect(try playlists(context) == ["jazz": 5, "blues": 0])
    }

    @Test func aGroupIsOneStepAndLevelsLimitTheSteps() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (context, manager) = try undoingContext(.inMemory, in: directory)
        manager.beginUndoGrouping()
        for name in ["a", "b", "c"] {
            context.insert(Playlist(name: name))
            try context.save()
        }
        try manager.endUndoGrouping()
        try manager.undo()
        #expect(try playlists(context).isEmpty, "the three saves of the group undone together")
        #expect(!manager.canUndo)

        manager.levelsOfUndo = 2
        for name in ["d", "e", "f"] {
            context.insert(Playlist(name: name))
            try context.save()
        }
        try manager.undo()
        try manager.undo()
        #expect(try playlists(context) == ["d": 0])
        #expect(!manager.canUndo, "only two levels kept")
        manager.removeAllActions()
        #expect(!manager.canRedo)
        #expect { try manager.endUndoGrouping() } throws: {
            ($0 as? DataStoreError)?.code == .undoUnavailable
        }
    }

    @Test func aDeleteUndoneRestoresRelationshipsWhoseTargetsExist() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (context, manager) = try undoingContext(.jsonFile, in: directory)
        let list = Playlist(name: "mix")
        let kept = Song(title: "kept")
        let gone = Song(title: "gone")
        context.insert(list)
        list.songs = [kept, gone]
        try context.save()
        context.delete(list)
        try context.save()
        #expect(try context.fetch(FetchDescriptor<Song>()).allSatisfy { $0.playlist == nil }, "nullified")
        // Another context deletes one of the songs; the undo restores the playlist with the other.
        let other = ModelContext(context.container)
        other.delete(
            try #require(
                try other.fetch(FetchDescriptor<Song>(predicate: #Predicate { $0.title == "gone" })).first))
        try other.save()
        try manager.undo()
        let fresh = ModelContext(context.container)
        let restored = try #require(try fresh.fetch(FetchDescriptor<Playlist>()).first)
        #expect(restored.songs.map(\.title) == ["kept"])
        #expect(
            try fresh.fetch(FetchDescriptor<Song>()).first?.playlist?.name == "mix", "both sides restored")
    }

    @Test(arguments: MusicStore.allCases)
    func aThousandRandomEditsUndoAndRedoToTheSameStates(_ kind: MusicStore) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try kind.open(in: directory.url)
        let container = try MusicStore.container(on: store)
        let context = ModelContext(container)
        context.author = "app"
        for name in ["first", "second"] { context.insert(Playlist(name: name)) }
        try context.save()
        let before = try rows(store)
        let historyBefore = try context.fetchHistory(HistoryDescriptor()).count
        let manager = ModelUndoManager()
        context.undoManager = manager
        var generator = SplitMix64(seed: 34)
        var steps = 0
        for edit in 0..<1_000 {
            try randomEdit(edit, in: context, using: &generator)
            let had = context.hasChanges
            try context.save()
            if had { steps += 1 }
        }
        let after = try rows(store)
        #expect(after != before)
        var undone = 0
        while manager.canUndo {
            try manager.undo()
            undone += 1
        }
        #expect(try rows(store) == before, "every edit undone")
        let history = try context.fetchHistory(HistoryDescriptor())
        let undoTransactions = history.filter { $0.author == "app-undo" }.count
        #expect(undone <= steps && undoTransactions == undone, "one inverse transaction per undone step")
        #expect(history.count == historyBefore + steps + undone)
        while manager.canRedo { try manager.redo() }
        #expect(try rows(store) == after, "every edit redone")
    }

    /// The store's rows, by identifier: what the states are compared by.
    func rows(_ store: any DataStore) throws -> [PersistentIdentifier: [String: SnapshotValue]] {
        var rows: [PersistentIdentifier: [String: SnapshotValue]] = [:]
        for snapshot in try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Playlist>()))
            .snapshots
            + store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<Song>())).snapshots
        {
            rows[snapshot.persistentIdentifier] = snapshot.values
        }
        return rows
    }

    /// One random edit through the context: an insert, an attribute change, a relationship change from either
    /// side, or a delete.
    func randomEdit(_ edit: Int, in context: ModelContext, using generator: inout SplitMix64) throws {
        let lists = try context.fetch(FetchDescriptor<Playlist>(sortBy: [SortDescriptor(\.name)]))
        let songs = try context.fetch(FetchDescriptor<Song>(sortBy: [SortDescriptor(\.title)]))
        switch Int.random(in: 0..<8, using: &generator) {
        case 0:
            context.insert(Playlist(name: "list \(edit)", rating: edit % 5))
        case 1:
            let song = Song(title: "song \(edit)", plays: edit % 7)
            context.insert(song)
            song.playlist = lists.randomElement(using: &generator)
        case 2:
            songs.randomElement(using: &generator)?.plays += 1
        case 3:
            lists.randomElement(using: &generator)?.rating = Int.random(in: 0..<5, using: &generator)
        case 4:
            songs.randomElement(using: &generator)?.playlist = lists.randomElement(using: &generator)
        case 5:
            if let list = lists.randomElement(using: &generator),
                let song = songs.randomElement(using: &generator),
                !list.songs.contains(where: { $0 === song })
            {
                list.songs.append(song)
            }
        case 6:
            if let song = songs.randomElement(using: &generator) { context.delete(song) }
        default:
            if lists.count > 3, let list = lists.randomElement(using: &generator) { context.delete(list) }
        }
    }
}

/// The context's models show what an undo wrote, relationships included.
@Suite struct UndoRelationshipViewTests {
    /// Undoing a saved delete of a song brings it back on its playlist, in the store and in the context's
    /// playlist, where it was.
    @Test(arguments: MusicStore.allCases)
    func anUndoneDeleteIsBackInTheContextsList(_ kind: MusicStore) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (context, manager) = try UndoTests().undoingContext(kind, in: directory)
        let rock = Playlist(name: "rock")
        context.insert(rock)
        rock.songs = ["a", "b", "c"].map { Song(title: $0) }
        try context.save()
        context.delete(rock.songs[1])
        try context.save()
        #expect(rock.songs.map(\.title) == ["a", "c"])
        try manager.undo()
        let stored = try ModelContext(context.container).fetch(FetchDescriptor<Playlist>()).first
        #expect(stored?.songs.map(\.title) == ["a", "b", "c"], "the store")
        #expect(rock.songs.map(\.title) == ["a", "b", "c"], "the context's playlist")
        #expect(rock.songs.allSatisfy { $0.playlist === rock }, "each song's playlist")
    }
}

extension UndoRelationshipViewTests {
    /// An unsaved append undone and redone: the new song is on the playlist again from both sides, before the
    /// save and after it.
    @Test(arguments: MusicStore.allCases)
    func aRedoneUnsavedAppendIsLinkedBothWays(_ kind: MusicStore) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let (context, manager) = try UndoTests().undoingContext(kind, in: directory)
        let rock = Playlist(name: "rock")
        context.insert(rock)
        rock.songs = [Song(title: "a")]
        try context.save()
        let song = Song(title: "b")
        rock.songs.append(song)
        try manager.undo()
        #expect(rock.songs.map(\.title) == ["a"])
        try manager.redo()
        #expect(rock.songs.map(\.title) == ["a", "b"])
        #expect(song.playlist === rock, "the song's side")
        try context.save()
        let stored = try ModelContext(context.container).fetch(FetchDescriptor<Song>())
        #expect(stored.map { "\($0.title) \($0.playlist?.name ?? "-")" }.sorted() == ["a rock", "b rock"])
    }
}
