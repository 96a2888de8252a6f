public import DataStoreCore

/// One change in a model container's history, in SwiftData's enum shape.
///
/// The seeds' code ports with type names changed only:
///
/// ```swift
/// switch change {
/// case .insert(_ as HistoryInsert<LivingAccommodation>): resultTrips.insert(matchedTrip)
/// case .update(_ as HistoryUpdate<LivingAccommodation>): resultTrips.update(with: matchedTrip)
/// case .delete(_ as HistoryDelete<LivingAccommodation>): resultTrips.remove(matchedTrip)
/// default: break
/// }
/// ```
public enum ModelHistoryChange: HistoryChange {
    /// A model was inserted; the payload is a ``HistoryInsert``.
    case insert(any TypedHistoryChange)
    /// A model was updated; the payload is a ``HistoryUpdate``.
    case update(any TypedHistoryChange)
    /// A model was deleted; the payload is a ``HistoryDelete``.
    case delete(any TypedHistoryChange)

    private var payload: any TypedHistoryChange {
        switch self {
        case .insert(let change), .update(let change), .delete(let change): change
        }
    }

    /// The model the change applies to.
    public var changedPersistentIdentifier: PersistentIdentifier { payload.changedPersistentIdentifier }
    /// The store-wide identifier of the change.
    public var changeIdentifier: Int64 { payload.changeIdentifier }
    /// The identifier of the transaction that holds the change.
    public var transactionIdentifier: Int64 { payload.transactionIdentifier }
    /// Insert, update or delete.
    public var kind: HistoryChangeKind {
        switch self {
        case .insert: .insert
        case .update: .update
        case .delete: .delete
        }
    }
    /// For an update, the names of the changed attributes; otherwise empty.
    public var updatedAttributes: [String] { payload.updatedAttributeNames }
    /// For a delete, the preserved values; otherwise `nil`.
    public var tombstone: [String: SnapshotValue]? { payload.tombstoneValues }
    /// For an update or delete, the replaced values of the attributes marked `.preservePreviousValue`.
    public var previousValues: [String: SnapshotValue]? { payload.previousValuesByName }

    /// The values an insert or update wrote, when the store records them.
    var recordedValues: [String: SnapshotValue]? { payload.recordedValues }

    /// Whether the container has a model type for the changed entity.
    var isTyped: Bool { !(payload is UntypedHistoryChange) }

    /// Wraps a store's change in the typed view for `Model`.
    public static func typed<Model: PersistentModel>(_ change: some HistoryChange, as _: Model.Type)
        -> ModelHistoryChange
    {
        let id = change.changedPersistentIdentifier
        let values = recordedValues(of: change)
        switch change.kind {
        case .insert:
            return .insert(
                HistoryInsert<Model>(
                    changedPersistentIdentifier: id, changeIdentifier: change.changeIdentifier,
                    transactionIdentifier: change.transactionIdentifier, recordedValues: values))
        case .update:
            return .update(
                HistoryUpdate<Model>(
                    changedPersistentIdentifier: id, changeIdentifier: change.changeIdentifier,
                    transactionIdentifier: change.transactionIdentifier,
                    updatedAttributeNames: change.updatedAttributes, recordedValues: values,
                    previousValues: change.previousValues))
        case .delete:
            return .delete(
                HistoryDelete<Model>(
                    changedPersistentIdentifier: id, changeIdentifier: change.changeIdentifier,
                    transactionIdentifier: change.transactionIdentifier,
                    tombstone: HistoryTombstone(values: change.tombstone ?? [:]),
                    previousValues: change.previousValues))
        }
    }

    /// Wraps a change to an entity without a model type in ``UntypedHistoryChange``.
    public static func untyped(_ change: some HistoryChange) -> ModelHistoryChange {
        let payload = UntypedHistoryChange(
            changedPersistentIdentifier: change.changedPersistentIdentifier,
            changeIdentifier: change.changeIdentifier, transactionIdentifier: change.transactionIdentifier,
            updatedAttributeNames: change.updatedAttributes, tombstoneValues: change.tombstone,
            recordedValues: change.kind == .delete ? nil : recordedValues(of: change),
            previousValuesByName: change.previousValues)
        switch change.kind {
        case .insert: return .insert(payload)
        case .update: return .update(payload)
        case .delete: return .delete(payload)
        }
    }

    private static func recordedValues(of change: some HistoryChange) -> [String: SnapshotValue]? {
        (change as? any ValueRecordingHistoryChange)?.values
    }
}
