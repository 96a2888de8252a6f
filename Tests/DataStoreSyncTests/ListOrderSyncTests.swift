import DataStoreCore
import DataStoreModels
import DataStoreSync
import InMemoryStorage
import StoreTestSupport
import Testing

/// A list whose previous values history keeps is pushed as an edit of the list: a reorder pushed after
/// another device's edit keeps both, and every store ends with the same order.
@Suite struct ListOrderSyncTests {
    @Test func aReorderPushedAfterAnotherDevicesAppendKeepsBoth() throws {
        let schema = SyncSchemas.music
        let lab = try SyncLab(server: try InMemoryDataStore(.init(name: "server", schema: schema)))
        defer { lab.remove() }
        let (a, b) = (
            try lab.device("a", schema: schema, models: [Playlist.self, Song.self]),
            try lab.device("b", schema: schema, models: [Playlist.self, Song.self])
        )
        func mix(_ context: ModelContext) throws -> Playlist {
            try #require(try context.fetch(FetchDescriptor<Playlist>()).first)
        }
        try a.edit { context in
            let playlist = Playlist(name: "Mix")
            context.insert(playlist)
            for title in ["one", "two", "three"] { playlist.songs.append(Song(title: title)) }
        }
        try a.sync()
        try b.sync()
        // a appends and pushes first; b, which has not pulled it, reverses its view of the list.
        try a.edit { try mix($0).songs.append(Song(title: "four")) }
        try a.sync()
        try b.edit { try mix($0).songs.reverse() }
        try b.sync()
        try a.sync()
        let stored = try [a.container, b.container].map { try StoredTrips($0, of: Playlist.self) }
        let server = try StoredTrips(
            ModelContainer(for: [Playlist.self], configurations: [ModelConfiguration(store: lab.server)]),
            of: Playlist.self)
        #expect(server.lists["Mix"] == ["three", "two", "one", "four"], "\(server)")
        #expect(stored.allSatisfy { $0 == server }, "\(stored) vs \(server)")
    }
}
