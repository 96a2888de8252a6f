import DataStoreCore

/// The values of one uniqueness constraint (one `.unique` attribute, or a compound set) in one entity.
struct UniqueKey: Hashable, Sendable {
    var entity: String
    var attributes: [String]
    var values: [SnapshotValue]

    /// The unique keys of a snapshot of `entity`, whose constraints are `constraints`. A key with a `nil` value
    /// holds nothing: any number of models may hold `nil`, as in SQL.
    static func keys(of snapshot: DataStoreSnapshot, entity: String, constraints: [[String]]) -> [UniqueKey] {
        guard !constraints.isEmpty else { return [] }
        var keys: [UniqueKey] = []
        keys.reserveCapacity(constraints.count)
        for names in constraints {
            let values = names.map { snapshot[attribute: $0] }
            if !values.contains(.null) {
                keys.append(UniqueKey(entity: entity, attributes: names, values: values))
            }
        }
        return keys
    }

    /// `title`, or `name, startDate, endDate`, for messages.
    var attributeDescription: String { attributes.joined(separator: ", ") }

    /// The value as written, or the values in parentheses, for messages.
    var valueDescription: String {
        values.count == 1
            ? values[0].userDescription : "(" + values.map(\.userDescription).joined(separator: ", ") + ")"
    }
}
