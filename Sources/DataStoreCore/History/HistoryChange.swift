import Foundation

/// One change inside a history transaction: the insert, update or delete of one model instance.
///
/// Each backend defines its own change type. The model layer turns them into SwiftData's enum shape
/// (`ModelHistoryChange`) with typed views such as `HistoryUpdate`.
///
/// # Implementation requirements
///
/// - ``changedPersistentIdentifier`` names the model after any remapping the save did.
/// - ``updatedAttributes`` lists, for an update, exactly the attributes whose value changed, sorted by name,
///   and is empty for inserts and deletes. An attribute written with its old value is not listed.
/// - ``tombstone`` is non-`nil` only for deletes and holds exactly the attributes marked
///   `.preserveValueOnDeletion`, with the values they had when deleted.
/// - ``changeIdentifier`` is unique in the store and grows in commit order.
/// - ``previousValues``, when the store records them, holds for an update exactly the updated attributes marked
///   `.preservePreviousValue` with the values they had before the update, for a delete every attribute so
///   marked with its value when deleted, and is `nil` for inserts and when no marked attribute is involved.
///   A store that does not record them keeps the default, `nil`, and says so in its documentation.
public protocol HistoryChange: Sendable {
    /// The model the change applies to.
    var changedPersistentIdentifier: PersistentIdentifier { get }
    /// A store-wide identifier of this change, growing in commit order.
    var changeIdentifier: Int64 { get }
    /// The identifier of the transaction that holds this change.
    var transactionIdentifier: Int64 { get }
    /// Whether the change inserted, updated or deleted the model.
    var kind: HistoryChangeKind { get }
    /// For an update, the names of the attributes whose value changed, sorted; otherwise empty.
    var updatedAttributes: [String] { get }
    /// For a delete, the preserved attribute values; otherwise `nil`.
    var tombstone: [String: SnapshotValue]? { get }
    /// The values the change replaced, of the attributes marked `.preservePreviousValue`; `nil` when none.
    var previousValues: [String: SnapshotValue]? { get }
}

extension HistoryChange {
    /// `nil`: a store that does not record previous values.
    public var previousValues: [String: SnapshotValue]? { nil }
}
