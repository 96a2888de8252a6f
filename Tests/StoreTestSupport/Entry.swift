public import DataStoreCore
public import Foundation

/// The model the multi-process tests write: which process wrote it, and which of its saves.
public struct Entry: PersistentModel, Hashable {
    /// The attributes.
    public static let schemaAttributes: [ModelAttribute<Entry>] = [
        .attribute("key", \.key, options: [.unique, .preserveValueOnDeletion]),
        .attribute("writer", \.writer),
        .attribute("round", \.round),
        .attribute("timestamp", \.timestamp),
    ]
    /// The schema holding only `Entry`.
    public static let schema = Schema([Entry.self])

    /// The identifier.
    public var persistentModelID = PersistentIdentifier()
    /// `writer-round-part`, unique.
    public var key = ""
    /// The writing process's label.
    public var writer = ""
    /// Which of its saves wrote it.
    public var round = 0
    /// When it was written (the sample time, for time-series stores).
    public var timestamp = Date(timeIntervalSinceReferenceDate: 0)

    /// An empty entry.
    public init() {}

    /// The snapshots one save of `writer`'s round `round` inserts: three entries, so a partial transaction
    /// would show as fewer than three.
    public static func batch(store: String, writer: String, round: Int, at date: Date = Date())
        -> [DataStoreSnapshot]
    {
        ["a", "b", "c"].map { part in
            var entry = Entry()
            entry.key = "\(writer)-\(round)-\(part)"
            entry.writer = writer
            entry.round = round
            entry.timestamp = date
            entry.persistentModelID = PersistentIdentifier(
                storeIdentifier: store, entityName: "Entry", primaryKey: entry.key)
            return entry.snapshot
        }
    }
}
