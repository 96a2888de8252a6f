public import DataStoreCore
public import Foundation

/// The suite's model after a lightweight migration, as the schema checks read it: `note` renamed to `remark`
/// (through `originalName`), `rating` added with a default of 7, `tag` removed.
public struct ConformanceItemRevised: PersistentModel, Hashable {
    /// The same entity as ``ConformanceItem``.
    public static var entityName: String { ConformanceItem.entityName }
    /// The attributes.
    public static let schemaAttributes: [ModelAttribute<ConformanceItemRevised>] = [
        .attribute("name", \.name, options: [.unique, .preserveValueOnDeletion]),
        .attribute("value", \.value),
        .attribute("remark", \.remark, originalName: "note"),
        .attribute("rating", \.rating),
        .attribute("timestamp", \.timestamp),
    ]

    /// The item's identifier.
    public var persistentModelID = PersistentIdentifier()
    /// The name.
    public var name = ""
    /// A number.
    public var value = 0
    /// What `note` was called before.
    public var remark = ""
    /// Added with a default.
    public var rating = 7
    /// The sample time.
    public var timestamp = Date(timeIntervalSinceReferenceDate: 0)

    /// An empty item.
    public init() {}
}
