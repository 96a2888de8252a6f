/// One change that a validated save will make, in the form history and journals record it.
public struct PlannedChange: Hashable, Codable, Sendable {
    /// Insert, update or delete.
    public var kind: HistoryChangeKind
    /// The model changed, after remapping.
    public var identifier: PersistentIdentifier
    /// For an insert, every attribute value; for an update, the new values of the changed attributes only
    /// (the attribute-level diff); for a delete, empty.
    public var values: [String: SnapshotValue]
    /// For an update, the names of the changed attributes, sorted; otherwise empty.
    public var updatedAttributes: [String]
    /// For a delete, the preserved attribute values; otherwise `nil`.
    public var tombstone: [String: SnapshotValue]?
    /// The values before the change of the attributes marked `.preservePreviousValue`: for an update, those it
    /// changed; for a delete, all of them. `nil` for an insert and where no such attribute is involved.
    public var previousValues: [String: SnapshotValue]?

    /// Creates a planned change.
    public init(
        kind: HistoryChangeKind, identifier: PersistentIdentifier, values: [String: SnapshotValue] = [:],
        updatedAttributes: [String] = [], tombstone: [String: SnapshotValue]? = nil,
        previousValues: [String: SnapshotValue]? = nil
    ) {
        self.kind = kind
        self.identifier = identifier
        self.values = values
        self.updatedAttributes = updatedAttributes
        self.tombstone = tombstone
        self.previousValues = previousValues
    }
}
