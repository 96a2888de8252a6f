/// Playlists: a plain list whose previous values history keeps, so that a sync pushes it as an edit.
extension Playlist: ListOwningModel {
    /// `songs`.
    public static var listName: String { "songs" }
    /// `playlist`.
    public static var ownerName: String { "playlist" }

    /// A playlist rated `day` modulo 6.
    public static func make(name: String, day: Int) -> Playlist { Playlist(name: name, rating: day % 6) }
    /// A song titled `title`.
    public static func makeItem(title: String) -> Song { Song(title: title) }
    /// The song's title.
    public static func title(of item: Song) -> String { item.title }

    /// The songs.
    public var listedItems: [Song] { songs }
    /// `songs.append(item)`.
    public func append(_ item: Song) { songs.append(item) }
    /// `songs.insert(item, at: 0)`.
    public func insertFirst(_ item: Song) { songs.insert(item, at: 0) }
    /// `songs.reverse()`.
    public func reverseList() { songs.reverse() }
    /// `songs = []`.
    public func clearList() { songs = [] }
    /// `song.playlist = playlist`.
    public static func setTrip(_ playlist: Playlist?, of item: Song) { item.playlist = playlist }
    /// `item.playlist`.
    public static func trip(of item: Song) -> Playlist? { item.playlist }
}
