public import DataStoreCore

/// The relationship checks' owner: a folder holds entries (to-many, `.cascade`, inverse
/// ``ConformanceEntry/folder``) and pins one entry (to-one, `.deny`, no inverse). History keeps the previous
/// values of `entries` and of the entry's `name` and `folder`.
public final class ConformanceFolder: PersistentModel {
    /// The entity name in the fixture schema.
    public static let entityName = "ConformanceFolder"
    /// The attributes and relationships.
    public static let schemaAttributes: [ModelAttribute<ConformanceFolder>] = [
        .attribute("name", \.name, options: [.unique, .preserveValueOnDeletion]),
        .relationship(
            "entries", \.entries, deleteRule: .cascade, inverse: \ConformanceEntry.folder,
            options: .preservePreviousValue),
        .relationship("pinned", \.pinned, deleteRule: .deny),
    ]
    /// The schema the relationship checks open stores with: ``ConformanceItem``, the folder and the entry.
    public static let schema = Schema([ConformanceItem.self, ConformanceFolder.self, ConformanceEntry.self])

    /// The folder's identifier.
    public var persistentModelID = PersistentIdentifier()
    /// Its name, kept on deletion.
    public var name = ""
    /// The entries it holds; deleted with it.
    @Relationship public var entries: [ConformanceEntry] = []
    /// An entry it pins; while the pinned entry exists, the folder cannot be deleted.
    @Relationship public var pinned: ConformanceEntry?

    /// An empty folder.
    public init() {}
}

/// The relationship checks' member: an entry's ``folder`` is the inverse of ``ConformanceFolder/entries``
/// (`.nullify`, the default).
public final class ConformanceEntry: PersistentModel {
    /// The entity name in the fixture schema.
    public static let entityName = "ConformanceEntry"
    /// The attributes and relationships.
    public static let schemaAttributes: [ModelAttribute<ConformanceEntry>] = [
        .attribute("name", \.name, options: [.preserveValueOnDeletion, .preservePreviousValue]),
        .relationship("folder", \.folder, options: .preservePreviousValue),
    ]

    /// The entry's identifier.
    public var persistentModelID = PersistentIdentifier()
    /// Its name, kept on deletion.
    public var name = ""
    /// The folder holding it.
    @Relationship public var folder: ConformanceFolder?

    /// An empty entry.
    public init() {}
}
