public import DataStoreCore
public import DataStoreModels
public import Foundation
import JSONFileStorage

/// A playlist whose every attribute keeps its previous value in history, so that any transaction can be
/// taken back. Deleting it takes its songs off it (`.nullify`).
public final class Playlist: PersistentModel {
    /// The attributes, each keeping its previous value.
    public static let schemaAttributes: [ModelAttribute<Playlist>] = [
        .attribute("name", \.name, options: [.unique, .preserveValueOnDeletion, .preservePreviousValue]),
        .attribute("rating", \.rating, options: .preservePreviousValue),
        .attribute("comment", \.comment, options: .preservePreviousValue),
        .relationship("songs", \.songs, inverse: \Song.playlist, options: .preservePreviousValue),
    ]
    /// The identifier.
    public var persistentModelID = PersistentIdentifier()
    /// A unique name.
    public var name = ""
    /// A rating from 0 to 5.
    public var rating = 0
    /// Free text.
    public var comment = ""
    /// The songs on it.
    @Relationship public var songs: [Song] = []
    /// An empty model.
    public init() {}
    /// A playlist with a name and rating.
    public init(name: String, rating: Int = 0) {
        self.name = name
        self.rating = rating
    }
}

/// A song on at most one playlist.
public final class Song: PersistentModel {
    /// The attributes, each keeping its previous value.
    public static let schemaAttributes: [ModelAttribute<Song>] = [
        .attribute("title", \.title, options: .preservePreviousValue),
        .attribute("plays", \.plays, options: .preservePreviousValue),
        .relationship("playlist", \.playlist, options: .preservePreviousValue),
    ]
    /// The identifier.
    public var persistentModelID = PersistentIdentifier()
    /// The title.
    public var title = ""
    /// How often it was played.
    public var plays = 0
    /// The playlist it is on.
    @Relationship public var playlist: Playlist?
    /// An empty model.
    public init() {}
    /// A song with a title and play count.
    public init(title: String, plays: Int = 0) {
        self.title = title
        self.plays = plays
    }
}

/// The schema of the music models.
public let musicSchema = Schema([Playlist.self, Song.self])

/// A container on the music JSON file store named `music` in `directory` (relaxed durability).
public func musicContainer(_ directory: URL) throws -> ModelContainer {
    let store = try JSONFileDataStore(
        .init(
            name: "music", schema: musicSchema, directory: directory.appendingPathComponent("music"),
            durability: .relaxed))
    return try ModelContainer(
        for: [Playlist.self, Song.self], configurations: [ModelConfiguration(store: store)])
}
