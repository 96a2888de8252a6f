/// What a history change did to its model: insert, update or delete.
public enum HistoryChangeKind: String, Hashable, Codable, Sendable, CaseIterable {
    /// The model was inserted.
    case insert
    /// Attributes of an existing model changed value.
    case update
    /// The model was deleted; its preserved values are in the tombstone.
    case delete
}
