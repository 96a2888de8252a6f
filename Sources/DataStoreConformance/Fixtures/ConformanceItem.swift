public import DataStoreCore
public import Foundation

/// The suite's model: every check stores these.
///
/// `name` is unique and preserved on deletion, `tag` is preserved, `value` and `note` are not, and
/// `timestamp` is the sample time for time-series stores. History keeps the previous values of `value` and
/// `tag`, not of the others.
public struct ConformanceItem: PersistentModel, Hashable {
    /// The entity name in the fixture schema.
    public static let entityName = "ConformanceItem"
    /// The attributes.
    public static let schemaAttributes: [ModelAttribute<ConformanceItem>] = [
        .attribute("name", \.name, options: [.unique, .preserveValueOnDeletion]),
        .attribute("value", \.value, options: .preservePreviousValue),
        .attribute("note", \.note),
        .attribute("tag", \.tag, options: [.preserveValueOnDeletion, .preservePreviousValue]),
        .attribute("timestamp", \.timestamp),
    ]
    /// The fixture schema.
    public static let schema = Schema([ConformanceItem.self])

    /// The item's identifier.
    public var persistentModelID = PersistentIdentifier()
    /// A unique name, kept on deletion.
    public var name = ""
    /// A number, for predicates and sorting.
    public var value = 0
    /// Free text, not kept on deletion.
    public var note = ""
    /// A label, kept on deletion.
    public var tag = ""
    /// The sample time.
    public var timestamp = Date(timeIntervalSinceReferenceDate: 0)

    /// An empty item.
    public init() {}

    /// An item with the given values.
    public init(name: String, value: Int = 0, note: String = "", tag: String = "", timestamp: Date) {
        self.name = name
        self.value = value
        self.note = note
        self.tag = tag
        self.timestamp = timestamp
    }
}
