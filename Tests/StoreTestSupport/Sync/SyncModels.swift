public import DataStoreCore
import DataStoreSync

/// A trip as the sync tests' devices plan it: a unique name, two attributes that keep their previous values
/// (so conflicts on them reach the resolver), one that does not, and items deleted with it.
public final class SyncTrip: PersistentModel {
    /// The attributes.
    public static let schemaAttributes: [ModelAttribute<SyncTrip>] = [
        .attribute("name", \.name, options: .unique),
        .attribute("destination", \.destination, options: .preservePreviousValue),
        .attribute("nights", \.nights, options: .preservePreviousValue),
        .attribute("notes", \.notes),
        .relationship("items", \.items, deleteRule: .cascade, inverse: \SyncItem.trip),
    ]
    /// The identifier.
    public var persistentModelID = PersistentIdentifier()
    /// A unique name.
    public var name = ""
    /// Where to.
    public var destination = ""
    /// How long.
    public var nights = 0
    /// Free text, without previous values: its conflicts are decided by the default policy alone.
    public var notes = ""
    /// What to pack.
    @Relationship public var items: [SyncItem] = []
    /// An empty trip.
    public init() {}
    /// A trip with a name and details.
    public init(name: String, destination: String = "", nights: Int = 0) {
        self.name = name
        self.destination = destination
        self.nights = nights
    }
}

/// An item to pack, on at most one trip.
public final class SyncItem: PersistentModel {
    /// The attributes.
    public static let schemaAttributes: [ModelAttribute<SyncItem>] = [
        .attribute("title", \.title),
        .relationship("trip", \.trip),
    ]
    /// The identifier.
    public var persistentModelID = PersistentIdentifier()
    /// What it is.
    public var title = ""
    /// The trip it is packed for.
    @Relationship public var trip: SyncTrip?
    /// An empty item.
    public init() {}
    /// An item with a title.
    public init(title: String) { self.title = title }
}

/// A note with tags, each tag listing its notes: a many-to-many relationship, for the sync tests.
public final class SyncTaggedNote: PersistentModel {
    /// The title and the tags.
    public static let schemaAttributes: [ModelAttribute<SyncTaggedNote>] = [
        .attribute("title", \.title, options: .unique),
        .relationship("tags", \.tags, inverse: \SyncTag.notes),
    ]
    /// The identifier.
    public var persistentModelID = PersistentIdentifier()
    /// A unique title.
    public var title = ""
    /// Its tags.
    @Relationship public var tags: [SyncTag] = []
    /// An empty note.
    public init() {}
    /// A note titled `title`.
    public init(title: String) { self.title = title }
}

/// A tag, listing the notes that carry it (the seeds' optional spelling).
public final class SyncTag: PersistentModel {
    /// The name, a memo and the notes.
    public static let schemaAttributes: [ModelAttribute<SyncTag>] = [
        .attribute("name", \.name, options: .unique), .attribute("memo", \.memo),
        .relationship("notes", \.notes),
    ]
    /// The identifier.
    public var persistentModelID = PersistentIdentifier()
    /// A unique name.
    public var name = ""
    /// Free text: the fault test's tags workload writes each transaction's stamp into the tag it edits.
    public var memo = ""
    /// The notes carrying it.
    @Relationship public var notes: [SyncTaggedNote]? = []
    /// An empty tag.
    public init() {}
    /// A tag named `name`.
    public init(name: String) { self.name = name }
}

/// ``SyncTaggedNote`` with the previous values of its list kept: a push reads what a transaction changed in
/// the list from them, not from the members' side.
public final class SyncMarkedNote: PersistentModel {
    /// The title and the marks.
    public static let schemaAttributes: [ModelAttribute<SyncMarkedNote>] = [
        .attribute("title", \.title, options: .unique),
        .relationship("tags", \.tags, inverse: \SyncMark.notes, options: .preservePreviousValue),
    ]
    /// The identifier.
    public var persistentModelID = PersistentIdentifier()
    /// A unique title.
    public var title = ""
    /// Its marks.
    @Relationship public var tags: [SyncMark] = []
    /// An empty note.
    public init() {}
    /// A note titled `title`.
    public init(title: String) { self.title = title }
}

/// ``SyncTag`` with the previous values of its list kept.
public final class SyncMark: PersistentModel {
    /// The name, a memo and the notes.
    public static let schemaAttributes: [ModelAttribute<SyncMark>] = [
        .attribute("name", \.name, options: .unique), .attribute("memo", \.memo),
        .relationship("notes", \.notes, options: .preservePreviousValue),
    ]
    /// The identifier.
    public var persistentModelID = PersistentIdentifier()
    /// A unique name.
    public var name = ""
    /// Free text, as ``SyncTag/memo``.
    public var memo = ""
    /// The notes carrying it.
    @Relationship public var notes: [SyncMarkedNote]? = []
    /// An empty mark.
    public init() {}
    /// A mark named `name`.
    public init(name: String) { self.name = name }
}

/// The note of the sync scenario as a newer app version declares it: one more attribute, which older
/// devices do not know.
public struct SyncNoteVersion2: PersistentModel {
    /// The same entity as ``SyncNote``.
    public static var entityName: String { "SyncNote" }
    /// The attributes: ``SyncNote``'s plus `color`.
    public static let schemaAttributes: [ModelAttribute<SyncNoteVersion2>] = [
        .attribute("title", \.title), .attribute("body", \.body), .attribute("rank", \.rank),
        .attribute("color", \.color),
    ]
    /// The identifier.
    public var persistentModelID = PersistentIdentifier()
    /// A title.
    public var title = ""
    /// A body.
    public var body = ""
    /// A rank.
    public var rank = 0
    /// A colour only the newer version knows.
    public var color = ""
    /// An empty note.
    public init() {}
}

/// The schemas the sync tests use.
public enum SyncSchemas {
    /// Trips and items, plus the sync's bookkeeping.
    public static let trips = Schema([SyncTrip.self, SyncItem.self, SyncCursor.self])
    /// Notes and tags (many-to-many, without previous values), plus the bookkeeping.
    public static let tags = SyncTaggedNote.syncSchema
    /// Notes and marks (many-to-many, with previous values on both lists), plus the bookkeeping.
    public static let marks = SyncMarkedNote.syncSchema
    /// Playlists and songs (whose list keeps its previous values), plus the bookkeeping.
    public static let music = Schema([Playlist.self, Song.self, SyncCursor.self])
    /// Notes as the second app version declares them, plus the bookkeeping.
    public static let notesVersion2 = Schema([SyncNoteVersion2.self, SyncCursor.self])
}
