import DataStoreCore
import DataStoreModels
import Foundation
import StoreTestSupport
import Testing

/// Random edits of playlists' songs (append, insert at the front, reverse, empty, move a song to the other
/// playlist, take it off its playlist, delete it), each saved, with undos and redos in between; now and then an
/// edit is undone and redone before its save. Every undo must bring back exactly the state before the step
/// (lists in order, both sides of every link), every redo the state after it, in the store and in the
/// context's models alike.
///
/// 60 seeds of 24 steps on each store in `swift test`; `DATASTORE_SOAK=1` runs 600.
@Suite struct UndoListScenarioTests {
    @Test(arguments: MusicStore.allCases)
    func undoAndRedoRestoreEveryListExactly(_ kind: MusicStore) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let seeds = SoakSeeds.range(quick: 60)
        var counts = (undos: 0, redos: 0, unsaved: 0)
        for seed in seeds {
            let container = try MusicStore.container(on: kind.open("music-\(seed)", in: directory.url))
            let context = ModelContext(container)
            context.author = "app"
            let manager = ModelUndoManager()
            context.undoManager = manager
            var random = SplitMix64(seed: UInt64(seed))
            var log: [String] = []
            func check(_ expected: StoredTrips, _ what: String) throws {
                let stored = try StoredTrips(container, of: Playlist.self)
                let view = try StoredTrips(viewOf: context, of: Playlist.self)
                #expect(
                    stored == expected && view == expected,
                    """
                    seed \(seed), \(what): expected \(expected)
                    stored \(stored)
                    shown  \(view)
                    \(log.joined(separator: "\n"))
                    """)
            }
            // states[0 ... current] are the saved states the undo stack can go back to; the rest can be redone.
            var states = [try StoredTrips(container, of: Playlist.self)]
            var current = 0
            for name in ["rock", "jazz"] {
                let playlist = Playlist(name: name)
                context.insert(playlist)
                for index in 0..<3 { playlist.songs.append(Song(title: "\(name) \(index)")) }
            }
            try context.save()
            states.append(try StoredTrips(container, of: Playlist.self))
            current = 1
            for step in 0..<24 {
                switch Int.random(in: 0..<8, using: &random) {
                case 0...1 where current > 0:
                    log.append("undo")
                    try manager.undo()
                    current -= 1
                    counts.undos += 1
                    try check(states[current], "after an undo")
                case 2...3 where current < states.count - 1:
                    log.append("redo")
                    try manager.redo()
                    current += 1
                    counts.redos += 1
                    try check(states[current], "after a redo")
                default:
                    let edit = Int.random(in: 0..<7, using: &random)
                    let pick = Int.random(in: 0..<100, using: &random)
                    log.append("edit \(edit) pick \(pick)")
                    try Self.edit(edit, pick: pick, title: "s\(step)", in: context)
                    guard context.hasChanges else { break }
                    if Int.random(in: 0..<4, using: &random) == 0 {
                        // Undone and redone before its save.
                        let shown = try StoredTrips(viewOf: context, of: Playlist.self)
                        log.append("undo unsaved, redo")
                        try manager.undo()
                        try check(states[current], "after an unsaved edit was undone")
                        try manager.redo()
                        let redone = try StoredTrips(viewOf: context, of: Playlist.self)
                        #expect(
                            redone == shown,
                            "seed \(seed): redone \(redone)\nshown  \(shown)\n\(log.joined(separator: "\n"))")
                        counts.unsaved += 1
                    }
                    try context.save()
                    let saved = try StoredTrips(container, of: Playlist.self)
                    guard saved != states[current] else { break }
                    states = Array(states[...current]) + [saved]
                    current += 1
                    try check(saved, "after a save")
                }
            }
        }
        #expect(counts.undos > seeds.count * 3, "\(counts)")
        #expect(counts.redos > seeds.count, "\(counts)")
        #expect(counts.unsaved > seeds.count, "\(counts)")
    }

    /// One random edit of the context's playlists and songs.
    static func edit(_ edit: Int, pick: Int, title: String, in context: ModelContext) throws {
        let playlists = try context.fetch(FetchDescriptor<Playlist>()).sorted { $0.name < $1.name }
        let songs = try context.fetch(FetchDescriptor<Song>()).sorted { $0.title < $1.title }
        guard !playlists.isEmpty else {
            // Every playlist was undone: a new one.
            return context.insert(Playlist(name: "list \(title)"))
        }
        let playlist = playlists[pick % playlists.count]
        switch edit {
        case 0: playlist.append(Song(title: title))
        case 1: playlist.insertFirst(Song(title: title))
        case 2: playlist.reverseList()
        case 3: playlist.clearList()
        case 4 where !songs.isEmpty:
            songs[pick % songs.count].playlist = playlists[(pick + 1) % playlists.count]
        case 5 where !songs.isEmpty: songs[pick % songs.count].playlist = nil
        case 6 where !songs.isEmpty: context.delete(songs[pick % songs.count])
        default: break
        }
    }
}
