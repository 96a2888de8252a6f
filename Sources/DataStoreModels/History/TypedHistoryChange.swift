public import DataStoreCore

/// What every typed history change offers, whatever its model type: the payload of
/// ``ModelHistoryChange``'s cases.
///
/// Cast it to ``HistoryInsert``, ``HistoryUpdate`` or ``HistoryDelete`` of your model type to get key
/// paths and typed tombstone values, as in `case .update(let update as HistoryUpdate<Trip>)`.
public protocol TypedHistoryChange: Sendable {
    /// The model the change applies to.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// The store-wide identifier of the change.
    var changeIdentifier: Int64 { get }
    /// The identifier of the transaction that holds the change.
    var transactionIdentifier: Int64 { get }
    /// For an update, the names of the changed attributes; otherwise empty.
    var updatedAttributeNames: [String] { get }
    /// For a delete, the preserved values by attribute name; otherwise `nil`.
    var tombstoneValues: [String: SnapshotValue]? { get }
    /// The values an insert or update wrote, when the store records them (see
    /// `ValueRecordingHistoryChange`); `nil` otherwise.
    var recordedValues: [String: SnapshotValue]? { get }
    /// The values an update or delete replaced, of the attributes marked `.preservePreviousValue`, by name;
    /// `nil` when none (see `HistoryChange/previousValues`).
    var previousValuesByName: [String: SnapshotValue]? { get }
}

extension TypedHistoryChange {
    /// `nil`: a change that keeps no previous values.
    public var previousValuesByName: [String: SnapshotValue]? { nil }
}
