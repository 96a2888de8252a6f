/// One change in a transaction: the insert, update or delete of one model, with the values it wrote. One
/// type serves every backend; backends name it through a type alias (`JSONFileHistoryChange`, …).
///
/// The written values are kept as two parallel arrays rather than a dictionary: an update's names are its
/// `updatedAttributes` (the same array storage), so a long history of small updates costs little memory.
public struct GenericHistoryChange<Kind: HistoryTokenKind>: ValueRecordingHistoryChange, Hashable {
    /// The changed model.
    public var changedPersistentIdentifier: PersistentIdentifier
    /// The store-wide change identifier, growing in commit order.
    public var changeIdentifier: Int64
    /// The transaction's identifier.
    public var transactionIdentifier: Int64
    /// For an update, the changed attributes' names, sorted; otherwise empty.
    public var updatedAttributes: [String]
    /// For a delete, the preserved values; otherwise `nil`.
    public var tombstone: [String: SnapshotValue]?
    /// The previous values, `nil` when none: one reference, so that the many changes without them pay 8
    /// bytes, not the two arrays.
    var previous: PreviousValueColumns?

    /// The values before the change of the attributes marked `.preservePreviousValue`; `nil` when none.
    public var previousValues: [String: SnapshotValue]? {
        get { previous.map { Dictionary(uniqueKeysWithValues: zip($0.names, $0.values)) } }
        set {
            previous = newValue.map {
                let (names, values) = Self.columns($0, names: updatedAttributes)
                return PreviousValueColumns(names: names, values: values)
            }
        }
    }

    /// The names of the written values, sorted, and the values in the same order.
    var valueNames: [String]
    var valueList: [SnapshotValue] {
        get { valueColumn.list }
        set { valueColumn = ValueColumn(newValue) }
    }
    /// The values, one of them inline: most retained changes are updates of one attribute, and an array of one
    /// would cost an allocation each.
    private var valueColumn: ValueColumn
    /// Insert, update or delete. (Declared last, beside the value column, so that the two share the struct's
    /// last word instead of each padding one.)
    public var kind: HistoryChangeKind

    /// For an insert, every value; for an update, the new values of the changed attributes; for a delete,
    /// empty. What a sync needs to replay the change elsewhere.
    public var values: [String: SnapshotValue] {
        get { Dictionary(uniqueKeysWithValues: zip(valueNames, valueList)) }
        set { (valueNames, valueList) = Self.columns(newValue, names: updatedAttributes) }
    }

    /// Creates a change.
    public init(
        changedPersistentIdentifier: PersistentIdentifier, changeIdentifier: Int64,
        transactionIdentifier: Int64,
        kind: HistoryChangeKind, updatedAttributes: [String] = [], tombstone: [String: SnapshotValue]? = nil,
        values: [String: SnapshotValue] = [:], previousValues: [String: SnapshotValue]? = nil
    ) {
        self.changedPersistentIdentifier = changedPersistentIdentifier
        self.changeIdentifier = changeIdentifier
        self.transactionIdentifier = transactionIdentifier
        self.kind = kind
        self.updatedAttributes = updatedAttributes
        self.tombstone = tombstone
        let (names, list) = Self.columns(values, names: updatedAttributes)
        valueNames = names
        valueColumn = ValueColumn(list)
        self.previousValues = previousValues
    }

    /// The change a planned save change becomes, numbered `changeIdentifier` in transaction
    /// `transactionIdentifier`.
    public init(_ planned: PlannedChange, changeIdentifier: Int64, transactionIdentifier: Int64) {
        self.init(
            changedPersistentIdentifier: planned.identifier, changeIdentifier: changeIdentifier,
            transactionIdentifier: transactionIdentifier, kind: planned.kind,
            updatedAttributes: planned.updatedAttributes, tombstone: planned.tombstone,
            values: planned.values,
            previousValues: planned.previousValues)
    }

    /// Replaces the change's name lists with equal ones from `interner`, so that a store's many changes naming
    /// the same attributes share one array.
    package mutating func shareNameLists(with interner: inout NameListInterner) {
        // An update's value names are its updated attributes (one storage): they stay one.
        let namesAreUpdated = valueNames == updatedAttributes
        updatedAttributes = interner.intern(updatedAttributes)
        valueNames = namesAreUpdated ? updatedAttributes : interner.intern(valueNames)
    }

    /// Sorted names and their values; reuses `names` (an update's `updatedAttributes`) when it lists exactly
    /// the values' keys, so the two share storage.
    static func columns(_ values: [String: SnapshotValue], names: [String]) -> ([String], [SnapshotValue]) {
        if names.count == values.count {
            // One lookup per name: the names are usually exactly the values' keys.
            var list: [SnapshotValue] = []
            list.reserveCapacity(names.count)
            for name in names {
                guard let value = values[name] else { break }
                list.append(value)
            }
            if list.count == names.count { return (names, list) }
        }
        let sorted = values.keys.sorted()
        return (sorted, sorted.map { values[$0]! })
    }
}

/// A change's written values: one inline, or any number in an array.
private enum ValueColumn: Hashable, Sendable {
    case single(SnapshotValue)
    case list([SnapshotValue])

    /// The column for `values`; always `.single` for one value, so that equal lists make equal columns.
    init(_ values: [SnapshotValue]) {
        self = values.count == 1 ? .single(values[0]) : .list(values)
    }

    var list: [SnapshotValue] {
        switch self {
        case .single(let value): [value]
        case .list(let values): values
        }
    }
}
